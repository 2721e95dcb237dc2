// The audit devices of a server, and the broker that records every request with them: the device the server's options
// name (`file/`), and the devices enabled over the API, read from the storage every process shares. As in Vault, a
// request is refused only when no enabled device could record it.
import { performance } from 'node:perf_hooks';
import { InternalError, InvalidRequest } from '../../lib/errors.js';
import type { JsonStore } from '../../core/store/stored-json.js';
import { AuditFormat, type AuditEvent, type AuditOutcome } from './audit-format.js';
import { AuditFile, AuditFileUnavailable } from './audit-file.js';
import { AuditTable, devicePath, enableRequest, fileOptions, type StoredDevice } from './audit-table.js';

/** The path of the device the server's options configure (`auditFile`, `STRONGROOM_AUDIT_FILE`). */
export const CONFIGURED_DEVICE = 'file/';

interface Device extends Omit<StoredDevice, 'key'> {
  format: AuditFormat;
  file: AuditFile;
  /** What makes two readings of the table the same device: its key, file and mode. */
  identity: string;
}

export interface AuditLogOptions {
  store: JsonStore;
  /** The server option's file, the device `file/`, hashed with `key`. */
  configured?: { file: string; key: Buffer } | undefined;
  /**
   * How long a process keeps the table it read before reading it again, in the background: another process's change
   * reaches it within about this long (at once on its own `sys/audit` calls, which read the table first).
   */
  refreshMs: number;
  /** Told of each entry a device could not write (the metrics count them). */
  onWriteFailure?: () => void;
}

function deviceOf(stored: Omit<StoredDevice, 'key'>, key: Buffer): Device {
  const { file, mode } = fileOptions(stored.options);
  const { path, type, description, local, options } = stored;
  return {
    path,
    type,
    description,
    local,
    options,
    format: new AuditFormat(key),
    file: new AuditFile(file, mode),
    identity: `${key.toString('base64')}\n${file}\n${mode}`,
  };
}

export class AuditLog {
  readonly #table: AuditTable;
  readonly #configured: Device | undefined;
  #devices = new Map<string, Device>();
  #checkedAt = Number.NEGATIVE_INFINITY;
  #refreshing: Promise<void> | undefined;

  constructor(private readonly options: AuditLogOptions) {
    this.#table = new AuditTable(options.store);
    const { configured } = options;
    this.#configured = configured && {
      ...deviceOf(
        {
          path: CONFIGURED_DEVICE,
          type: 'file',
          description: '',
          local: false,
          options: { file_path: configured.file },
        },
        configured.key,
      ),
      description: 'the server option auditFile (STRONGROOM_AUDIT_FILE)',
    };
  }

  /** Opens the configured file (one that cannot be opened is a configuration error) and reads the table. */
  async open(): Promise<void> {
    await this.#configured?.file.open();
    await this.#refresh();
  }

  /**
   * Whether any device is enabled. When the last reading of the table is older than `refreshMs`, it is read again in
   * the background: a request never waits on it, nor on a storage outage to time out. A reading that fails (an
   * outage) keeps the devices read before, and is tried again `refreshMs` later.
   */
  active(): boolean {
    if (this.#refreshing === undefined && performance.now() - this.#checkedAt >= this.options.refreshMs)
      void this.#refresh().catch(() => undefined);
    return this.#devices.size > 0;
  }

  /** `GET sys/audit`: each device by path, as Vault lists them. */
  async devices(): Promise<Record<string, unknown>> {
    await this.#readAgain();
    return Object.fromEntries(
      [...this.#devices.values()].map(({ path, type, description, options, local }) => [
        path,
        { type, description, options, local, path },
      ]),
    );
  }

  /** `sys/audit-hash/:path`: what that device writes in place of `input`. */
  async hash(path: string, input: string): Promise<string> {
    await this.#readAgain();
    const device = this.#devices.get(`${path.replace(/^\/+|\/+$/g, '')}/`);
    if (!device) throw new InvalidRequest(`unknown audit backend ${JSON.stringify(path)}`);
    return device.format.hash(input);
  }

  /** `PUT sys/audit/:path`: a file device, once its file opens here; stored for every process. */
  async enable(rawPath: string, body: unknown): Promise<void> {
    const path = devicePath(rawPath);
    const request = enableRequest(body);
    if (this.#configured && path === CONFIGURED_DEVICE) throw new InvalidRequest('path already in use');
    const { file, mode } = fileOptions(request.options);
    const probe = new AuditFile(file, mode);
    try {
      await probe.open();
    } catch (error) {
      throw error instanceof AuditFileUnavailable ? new InvalidRequest(error.message) : error;
    }
    await probe.close();
    await this.#table.add(path, request);
    await this.#readAgain();
  }

  /** `DELETE sys/audit/:path`: a device that is not there is no error, as in Vault. */
  async disable(rawPath: string): Promise<void> {
    const path = devicePath(rawPath);
    if (this.#configured && path === CONFIGURED_DEVICE)
      throw new InvalidRequest('cannot disable configuration-managed audit device');
    await this.#table.remove(path);
    await this.#readAgain();
  }

  logRequest(event: AuditEvent): Promise<void> {
    return this.#record((format) => format.requestEntry(event));
  }

  logResponse(event: AuditEvent, outcome: AuditOutcome, finished: Date): Promise<void> {
    return this.#record((format) => format.responseEntry(event, outcome, finished));
  }

  /**
   * Opens every device's file again by its path (SIGHUP, after a rotation), once the table is read again; answers the
   * files reopened. A file that cannot be opened is reported, after the others are reopened.
   */
  async reopen(): Promise<string[]> {
    await this.#readAgain();
    const devices = [...this.#devices.values()];
    const results = await Promise.allSettled(devices.map((device) => device.file.reopen()));
    const failed = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    if (failed.length > 0) throw failed.length === 1 ? failed[0] : new AggregateError(failed, messages(failed));
    return devices.map((device) => device.file.path);
  }

  async close(): Promise<void> {
    const devices = [...this.#devices.values()];
    this.#devices = new Map();
    await Promise.all(devices.map((device) => device.file.close()));
  }

  /** Writes one entry per device; throws only when no device could write its entry. */
  async #record(entryOf: (format: AuditFormat) => Record<string, unknown>): Promise<void> {
    const devices = [...this.#devices.values()];
    if (devices.length === 0) return;
    const results = await Promise.allSettled(
      devices.map((device) => device.file.append(`${JSON.stringify(entryOf(device.format))}\n`)),
    );
    const failures = results.filter((result) => result.status === 'rejected');
    for (const _ of failures) this.options.onWriteFailure?.();
    if (failures.length === devices.length)
      throw new InternalError('audit log could not be written: the request is refused', { cause: failures[0]!.reason });
  }

  /**
   * Reads the table in a reading that starts now: one in flight may have read it before a change this process just
   * made, and must not stand for it.
   */
  async #readAgain(): Promise<void> {
    await this.#refreshing?.catch(() => undefined);
    await this.#refresh();
  }

  /** Reads the table (once for all who ask meanwhile) and opens, keeps or closes devices to match it. */
  #refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      try {
        const stored = await this.#table.read();
        const next = new Map<string, Device>();
        if (this.#configured) next.set(CONFIGURED_DEVICE, this.#configured);
        for (const { key, ...device } of stored) {
          // In a process whose options configure `file/`, that device is the configured one.
          if (next.has(device.path)) continue;
          const fresh = deviceOf(device, Buffer.from(key, 'base64'));
          const known = this.#devices.get(device.path);
          next.set(device.path, known?.identity === fresh.identity ? known : fresh);
        }
        const gone = [...this.#devices.values()].filter((device) => next.get(device.path) !== device);
        this.#devices = next;
        // After the entries already queued: a request recorded before the change keeps its entry.
        await Promise.all(gone.map((device) => device.file.close()));
      } finally {
        this.#checkedAt = performance.now();
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }
}

function messages(errors: readonly unknown[]): string {
  return errors.map((error) => (error instanceof Error ? error.message : String(error))).join('; ');
}
