// Runs one benchmark scenario in a loop, to be profiled:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile/profile.mjs <scenario> [seconds]
//   node bench/profile/profile-summary.mjs /tmp/prof
// Scenarios: kv-read, kv-write (10 versions kept), kv-read-deep, kv-write-deep (1,000 kept), kv-read-one,
// kv-write-one (1 kept: what the deep ones are compared with), kv-write-encrypted (10 kept, through EncryptedStorage
// over MemoryStorage), pkcs7, iam-login, ec2-verdict (an ec2 login through
// handle() up to its signature verdict).
import { randomBytes } from 'node:crypto';
import { EncryptedStorage, KvEngine, MemoryStorage } from 'strongroom';
import { verifyPkcs7 } from '../harness/internals.mjs';
import { fillVersions, keyPath, kvRead, kvWithKeys, kvWrite } from '../harness/fixtures.mjs';
import { ec2Verdict, PKCS7_TRUSTED, sample } from '../login/verify.mjs';
import { iamLogin } from '../login/login.mjs';

async function kv(versions, operation) {
  const { kv: engine } = await kvWithKeys(1);
  const path = keyPath(0);
  await fillVersions(engine, path, versions);
  return operation === 'read' ? kvRead(engine, path) : kvWrite(engine, path);
}

const SCENARIOS = {
  'kv-read': () => kv(10, 'read'),
  'kv-write': () => kv(10, 'write'),
  'kv-read-deep': () => kv(1000, 'read'),
  'kv-write-deep': () => kv(1000, 'write'),
  'kv-read-one': () => kv(1, 'read'),
  'kv-write-one': () => kv(1, 'write'),
  'kv-write-encrypted': async () => {
    const engine = new KvEngine({
      storage: new EncryptedStorage({ storage: new MemoryStorage(), key: randomBytes(32) }),
    });
    await fillVersions(engine, keyPath(0), 10);
    return kvWrite(engine, keyPath(0));
  },
  pkcs7: async () => {
    const { rsa2048 } = sample();
    return async () => verifyPkcs7(rsa2048, PKCS7_TRUSTED);
  },
  'iam-login': async () => (await iamLogin()).login,
  'ec2-verdict': ec2Verdict,
};

const [name = '', seconds = '5'] = process.argv.slice(2);
const scenario = SCENARIOS[name];
if (!scenario) throw new Error(`unknown scenario ${JSON.stringify(name)}; one of ${Object.keys(SCENARIOS).join(', ')}`);
const operation = await scenario();
const started = performance.now();
let count = 0;
while (performance.now() - started < Number(seconds) * 1000) {
  await operation();
  count++;
}
console.log(`${name}: ${Math.round(count / Number(seconds)).toLocaleString('en-US')} operations/s`);
