// The floor server's work, taken from the real server rather than written by hand: the storage calls the server makes
// for a KV read and a KV write are recorded (over the very storage the floor then serves from), turned into a template
// per method, and replayed for every request by plain node:http. The issue defines the floor as doing "the same
// storage calls": a floor written by hand once did two of the read's four gets, and nothing said so.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** The two keys whose calls are recorded: two, so that what depends on the path shows as a key that differs. */
const RECORDED = ['load/0', 'load/1'];
/** Recordings of a method's two requests made, at most, until they agree call by call. */
const RECORDING_TRIES = 3;
/** Past the server's default of 10 versions kept, so the recorded write prunes one, as every write in the bench does. */
const WARM_UP = 12;
/** The server's own bound on a write that keeps losing its commit to another writer of the same key. */
const ATTEMPTS = 10;
/** A blob key as the KV layout names it: the mount's prefix, `versions/`, two characters of the id, the id. */
const BLOB = /^(.+\/)versions\/[0-9a-f]{2}\/[^/]+$/;
const URL_PREFIX = '/v1/secret/data/';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (value) => encoder.encode(JSON.stringify(value));
const decode = (bytes) => JSON.parse(decoder.decode(bytes));

/** Data of key `n` as the bench writes it, and the body of the bench's KV write. */
export const keyData = (n) => ({ password: 'x'.repeat(100), n });
export const writeBody = { data: { password: 'y'.repeat(100) } };

/**
 * Drives the real server at `url` (over `recorder.storage`) as the bench will: writes `keys` keys, warms up the two
 * keys it records, then records a GET and a POST of each. Answers `{ GET, POST }` (each two `{ path, calls }`) and
 * `blobs`: every key's current blob, read off a recorded GET of it once the template of GET is known.
 */
export async function recordServer(url, token, recorder, keys) {
  const send = async (method, path, body) => {
    const answer = await fetch(`${url}${URL_PREFIX}${path}`, {
      method,
      headers: { 'x-vault-token': token },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`the real server answered ${method} ${path} with ${answer.status}: ${text}`);
    return JSON.parse(text);
  };
  for (let n = 0; n < keys; n++) await send('POST', `load/${n}`, { data: keyData(n) });
  for (let round = 0; round < WARM_UP; round++)
    for (const path of RECORDED) {
      await send('POST', path, writeBody);
      await send('GET', path);
    }
  // The server's answers too: the floor answers the same JSON, not a shorter one.
  const answers = {};
  /**
   * Both requests of `method` recorded, with the template derived from them. A call of the server's background work
   * (the webhook deliverer's timed round, which lists the webhooks) in one recording makes the two disagree: they are
   * recorded again. Work the floor cannot mirror shows in every try, and the last try's refusal says which.
   */
  const recordBoth = async (method) => {
    for (let attempt = 1; ; attempt++) {
      const pair = [];
      for (const path of RECORDED) {
        const calls = await recorder.record(async () => {
          answers[method] = await send(method, path, method === 'POST' ? writeBody : undefined);
        });
        pair.push({ path, calls });
      }
      try {
        return { pair, template: deriveTemplate(pair) };
      } catch (error) {
        if (attempt === RECORDING_TRIES) throw error;
      }
    }
  };
  const reads = await recordBoth('GET');
  const recordings = { GET: reads.pair, POST: (await recordBoth('POST')).pair };
  const read = reads.template;
  if (!read.steps.some((step) => step.member === 'get' && step.key.kind === 'blob'))
    throw new Error('the recorded KV read gets no blob: the floor could not answer its data');
  // Found by its shape, not by its place among the calls: that background work once made one key's "blob" a webhook
  // listing, and every floor read of that key a 404.
  const isBlob = (call) => call.member === 'get' && BLOB.exec(call.args[0])?.[1] === read.prefix;
  const blobs = new Map();
  for (let n = 0; n < keys; n++) {
    const blob = (await recorder.record(() => send('GET', `load/${n}`))).find(isBlob)?.args[0];
    if (blob === undefined) throw new Error(`the recorded KV read of load/${n} got no blob`);
    blobs.set(`load/${n}`, blob);
  }
  return { ...recordings, blobs, answers };
}

/**
 * The template of one method from its two recordings (`{ path, calls }`, different paths), call by call: the same
 * member in both; a key equal in both is a constant; a key that differs must be the path's metadata key or a blob key
 * (a get of the current version's blob, a commit's put of a new blob with `expected: null`, a commit's delete of an
 * old one). Anything else throws: the floor must never do less than the server, nor something else.
 */
export function deriveTemplate([first, second]) {
  let prefix;
  const refuse = (index, why) => {
    throw new Error(`the floor cannot mirror the server's call ${index + 1} (${why}): it would not do the same work`);
  };
  const kindOf = (index, a, b) => {
    if (a === b) return { kind: 'constant', key: a };
    const [blobA, blobB] = [BLOB.exec(a), BLOB.exec(b)];
    const found = blobA && blobB && blobA[1] === blobB[1] ? 'blob' : undefined;
    const at = found ? blobA[1] : a.slice(0, a.length - `metadata/${first.path}`.length);
    const kind = found ?? (a === `${at}metadata/${first.path}` && b === `${at}metadata/${second.path}` && 'metadata');
    if (!kind)
      refuse(index, `keys ${JSON.stringify(a)} and ${JSON.stringify(b)} are neither a metadata nor a blob key`);
    if (prefix !== undefined && prefix !== at) refuse(index, `mount prefixes ${prefix} and ${at} differ`);
    prefix = at;
    return { kind };
  };
  if (first.calls.length !== second.calls.length)
    throw new Error(`the server made ${first.calls.length} storage calls once and ${second.calls.length} once`);
  const steps = first.calls.map((call, index) => {
    const other = second.calls[index];
    if (call.member !== other.member) refuse(index, `${call.member} once, ${other.member} once`);
    if (call.member === 'get') return { member: 'get', key: kindOf(index, call.args[0], other.args[0]) };
    if (call.member !== 'commit') refuse(index, `a ${call.member}, which the floor does not replay`);
    const [parts, others] = [call.args[0], other.args[0]];
    if (parts.length !== others.length) refuse(index, 'commits of different sizes');
    return { member: 'commit', parts: parts.map((part, at) => commitPart(index, part, others[at], kindOf)) };
  });
  return { prefix, steps };
}

/** One operation of a recorded commit as the floor repeats it; a put or delete of a constant key is refused. */
function commitPart(index, part, other, kindOf) {
  const condition = (expected) => (expected === undefined ? 'none' : expected === null ? 'absent' : 'bytes');
  const { kind } = kindOf(index, part.key, other.key);
  const shape = `${part.type} of a ${kind} key, condition ${condition(part.expected)}`;
  const known = {
    'put of a blob key, condition absent': 'new-blob',
    'delete of a blob key, condition none': 'old-blob',
    'put of a metadata key, condition bytes': 'metadata',
    'put of a metadata key, condition none': 'metadata',
  }[shape];
  if (part.type !== other.type || condition(part.expected) !== condition(other.expected) || !known)
    throw new Error(`the floor cannot mirror the server's call ${index + 1}: a commit's ${shape}`);
  return { kind: known, conditioned: part.expected !== undefined };
}

/**
 * The floor's answer to one request: the template of its method walked over `storage`. Each get is a real get of the
 * resolved key, its bytes JSON-decoded; a commit puts the request's data under a fresh blob key (`expected: null`),
 * puts the metadata record read back (conditioned on the bytes read, when the server's is), and deletes the blob this
 * floor wrote last for the path, the steady state of the server's write, which prunes one version as it adds one.
 */
export function floorAnswer(storage, templates, blobs) {
  const written = new Map();
  const resolve = (prefix, key, path) => {
    if (key.kind === 'constant') return key.key;
    if (key.kind === 'metadata') return `${prefix}metadata/${path}`;
    return written.get(path) ?? blobs.get(path);
  };
  async function walk(template, path, body) {
    const read = {};
    for (const step of template.steps) {
      if (step.member === 'get') {
        const key = resolve(template.prefix, step.key, path);
        const bytes = key === undefined ? undefined : await storage.get(key);
        read[step.key.kind] = { bytes, value: bytes === undefined ? undefined : decode(bytes) };
        continue;
      }
      if (read.metadata?.value === undefined) return { status: 404, body: { errors: [] } };
      const fresh = randomBytes(16).toString('hex');
      const blob = `${template.prefix}versions/${fresh.slice(0, 2)}/${fresh}`;
      const operations = step.parts.flatMap(({ kind, conditioned }) => {
        if (kind === 'new-blob') return [{ type: 'put', key: blob, value: encode(body.data), expected: null }];
        if (kind === 'old-blob') return written.has(path) ? [{ type: 'delete', key: written.get(path) }] : [];
        const metadata = { type: 'put', key: `${template.prefix}metadata/${path}`, value: encode(read.metadata.value) };
        return [conditioned ? { ...metadata, expected: read.metadata.bytes } : metadata];
      });
      if (!(await storage.commit(operations))) return undefined;
      written.set(path, blob);
    }
    const record = read.metadata?.value;
    if (record === undefined || (template.reads && read.blob?.value === undefined))
      return { status: 404, body: { errors: [] } };
    // The server's own answer to this method, with this request's data or version in it.
    const { answer } = template;
    if (template.reads) return { status: 200, body: { ...answer, data: { ...answer.data, data: read.blob.value } } };
    return { status: 200, body: { ...answer, data: { ...answer.data, version: record.current_version } } };
  }
  return async (method, url, text) => {
    const template = templates[method];
    if (!template || !url.startsWith(URL_PREFIX)) return { status: 405, body: { errors: ['not served here'] } };
    const body = method === 'POST' ? JSON.parse(text) : undefined;
    // A commit another request of the same key beat is tried again from the start, as the server's write is.
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const answer = await walk(template, url.slice(URL_PREFIX.length), body);
      if (answer) return answer;
    }
    return { status: 500, body: { errors: ['too many concurrent writers'] } };
  };
}

/**
 * Both methods' templates from `recordServer`'s recordings, each with the server's recorded answer to fill in; a GET's
 * template answers the blob it reads.
 */
export function floorTemplates(recordings) {
  const { answers } = recordings;
  return {
    GET: { ...deriveTemplate(recordings.GET), reads: true, answer: answers.GET },
    POST: { ...deriveTemplate(recordings.POST), answer: answers.POST },
  };
}

/** The floor as a node:http server answering through `floorAnswer`; not yet listening. */
export function floorHttpServer(answer) {
  return http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      answer(req.method, req.url, text).then(
        ({ status, body }) => {
          res.statusCode = status;
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(body));
        },
        (error) => {
          res.statusCode = 500;
          res.end(JSON.stringify({ errors: [String(error)] }));
        },
      );
    });
  });
}
