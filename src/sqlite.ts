/**
 * strongroom/sqlite: Storage in one SQLite file, and its copy side for backups. Needs the optional peer dependency
 * `libsql` (`npm i libsql`).
 *
 * @packageDocumentation
 */
export { SqliteStorage, type SqliteStorageOptions } from './adapters/storage/sqlite/sqlite-storage.js';
export { SqliteCopy } from './adapters/storage/sqlite/sqlite-copy.js';
