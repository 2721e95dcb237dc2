/**
 * strongroom/sqlite: Storage in one SQLite file. Needs the optional peer dependency `libsql` (`npm i libsql`).
 *
 * @packageDocumentation
 */
export { SqliteStorage, type SqliteStorageOptions } from './adapters/storage/sqlite/sqlite-storage.js';
