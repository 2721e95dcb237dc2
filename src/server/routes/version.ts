// The server's version as sys/health reports it: the package's semver, which Vault clients parse.
import packageJson from '../../../package.json' with { type: 'json' };

export const SERVER_VERSION: string = packageJson.version;
