// The one module that touches the WebAssembly instance: it loads it, owns the
// heap helpers (bytes in, call, free; strings; records), and learns from the C
// at init every record layout, enum value, error name and constant
// (iq_wasm_layout / iq_wasm_constants in src/wasm/iq_wasm_tables.c), so no other JS file
// knows an offset or a number that C defines.

/** Every failure is one of these: `code` is stable (the C's list or JS_ERRORS), `message` says what and where. */
export class InterquakeError extends Error {
  constructor(code, message, { offset = -1, line = 0, column = 0, file } = {}) {
    super(message);
    this.name = 'InterquakeError';
    this.code = code;
    this.offset = offset;
    this.line = line;
    this.column = column;
    if (file !== undefined) this.file = file;
  }
}

/**
 * Error codes only the JS library raises, with what each means: the C's list is
 * src/base/iq_errors.h (read from the WASM at init), the viewer's web/viewer/errors.js.
 * tools/gen-types.mjs joins the three into the ErrorCode type.
 */
export const JS_ERRORS = Object.freeze({
  wasm_unavailable: 'the WebAssembly module could not be fetched or compiled',
  wasm_mismatch: 'the WebAssembly module does not match the JS that loads it',
  unavailable: 'a part the call needs (an inflater for deflated entries) is not available',
  missing_file: 'a file the model or player needs is not there',
  bad_checksum: "an archive entry's CRC-32 does not match its data",
  bad_deflate: "an archive entry's deflate stream is invalid",
});

// C codes JS raises itself (checked against the C's list at init).
const C_CODES_USED = ['invalid_argument', 'out_of_memory', 'unsupported', 'internal'];

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

/**
 * Text as the file holds it: UTF-8 when the bytes are valid UTF-8, else Latin-1 (ISO 8859-1,
 * what Quake-era tools wrote), byte for byte, so every name comes back as some string and
 * two different byte strings never decode to the same string.
 */
export function decodeText(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return decodeLatin1(bytes);
  }
}

/** ISO 8859-1, byte for byte (TextDecoder's 'latin1' is windows-1252, which remaps 0x80-0x9F). */
export function decodeLatin1(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return out;
}

/** Bytes for the C: a Uint8Array view of whatever byte container was given, or an invalid_argument error. */
export function toBytes(bytes, what, file) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new InterquakeError('invalid_argument', `${what} takes a Uint8Array or an ArrayBuffer`, { file });
}

/** Text or bytes for the C text parsers. */
export function textBytes(input, what) {
  return typeof input === 'string' ? utf8Encoder.encode(input) : toBytes(input, what);
}

// Type codes of the layout table (the enum at the top of src/wasm/iq_wasm_tables.c): the table names them in C,
// and these are only how each is read.
const READERS = {
  1: (dv, at) => dv.getUint8(at),
  2: (dv, at) => dv.getUint16(at, true),
  3: (dv, at) => dv.getUint32(at, true),
  4: (dv, at) => dv.getInt32(at, true),
  5: (dv, at) => Number(dv.getBigUint64(at, true)),
  6: (dv, at) => Number(dv.getBigInt64(at, true)),
  7: (dv, at) => dv.getFloat32(at, true),
  8: (dv, at) => dv.getFloat64(at, true),
  9: (dv, at) => dv.getUint32(at, true),
};
const WRITERS = {
  1: (dv, at, v) => dv.setUint8(at, v),
  2: (dv, at, v) => dv.setUint16(at, v, true),
  3: (dv, at, v) => dv.setUint32(at, v, true),
  4: (dv, at, v) => dv.setInt32(at, v, true),
  5: (dv, at, v) => dv.setBigUint64(at, BigInt(Math.trunc(v)), true),
  6: (dv, at, v) => dv.setBigInt64(at, BigInt(Math.trunc(v)), true),
  7: (dv, at, v) => dv.setFloat32(at, v, true),
  8: (dv, at, v) => dv.setFloat64(at, v, true),
  9: (dv, at, v) => dv.setUint32(at, v, true),
};
const SIZES = { 1: 1, 2: 2, 3: 4, 4: 4, 5: 8, 6: 8, 7: 4, 8: 8, 9: 4, 10: 4 };
const T_STR = 10;
const T_CHARS = 11;
const T_REC = 12;

// Scratch memory for the records one call takes: SCRATCH_SLOTS slots of SCRATCH_SLOT bytes
// (scratchRecord), slot 0 at wasm.scratch.
const SCRATCH_SLOT = 128;
const SCRATCH_SLOTS = 2;

/** The instantiated module with its layout, constants and heap helpers. */
export class Wasm {
  constructor(exports) {
    this.exports = exports;
    this._readTables();
    // What calls write their results to: owned by this library, reused call after call.
    this.errorPtr = this.alloc(this.sizeof('iq_error'));
    this.scratch = this.alloc(SCRATCH_SLOT * SCRATCH_SLOTS);
    this.argsPtr = this.alloc(this.sizeof('iq_wasm_pose_args'));
    this.headPtr = this.alloc(this.sizeof('iq_playhead'));
  }

  /**
   * Where a call's `record` argument goes in scratch memory: slot `slot` (0 or 1, so one call can
   * take two records), checked to fit. The pointer is valid until the next call that uses the slot.
   */
  scratchRecord(record, slot = 0) {
    if (!(slot >= 0 && slot < SCRATCH_SLOTS && slot % 1 === 0) || this.sizeof(record) > SCRATCH_SLOT) throw this.fail('invalid_argument', `scratch slot ${slot} for ${record}`);
    return this.scratch + slot * SCRATCH_SLOT;
  }

  /** Whether this build exports `name` (the viewer's smaller WASM leaves out the writers and shader scripts). */
  has(name) { return typeof this.exports[name] === 'function'; }

  /** Throws 'unsupported' when this build does not export `name`; `what` names the feature for the message. */
  need(name, what) {
    if (!this.has(name)) throw this.fail('unsupported', `${what} is not in this WASM build (the one-file element's smaller build leaves it out): import 'interquake' for it`);
  }

  get heap() { return this.exports.memory.buffer; }
  get bytes() { return new Uint8Array(this.exports.memory.buffer); }
  view() { return new DataView(this.exports.memory.buffer); }

  _readTables() {
    const e = this.exports;
    const countPtr = e.iq_wasm_alloc(4);
    const table = (fn) => {
      const at = fn(countPtr);
      return [at, new DataView(this.heap).getUint32(countPtr, true)];
    };
    const [layoutAt, fieldCount] = table(e.iq_wasm_layout);
    const [constAt, constCount] = table(e.iq_wasm_constants);
    e.iq_wasm_free(countPtr);
    const dv = this.view();
    // iq_wasm_field: record, field, offset, type, count, of (24 bytes); iq_wasm_constant: group, name, value (16)
    this.records = {};
    for (let i = 0; i < fieldCount; i++) {
      const at = layoutAt + 24 * i;
      const record = this.cString(dv.getUint32(at, true));
      const field = this.cString(dv.getUint32(at + 4, true));
      const offset = dv.getUint32(at + 8, true);
      if (!field) {
        this.records[record] = { size: offset, fields: [] };
        continue;
      }
      const ofPtr = dv.getUint32(at + 20, true);
      this.records[record].fields.push({
        name: field, offset, type: dv.getUint32(at + 12, true), count: dv.getUint32(at + 16, true),
        of: ofPtr ? this.cString(ofPtr) : null,
      });
    }
    this.constants = {};
    for (let i = 0; i < constCount; i++) {
      const at = constAt + 16 * i;
      const group = this.cString(dv.getUint32(at, true));
      (this.constants[group] ??= {})[this.cString(dv.getUint32(at + 4, true))] = dv.getFloat64(at + 8, true);
    }
    /** Names by value for each group (error codes, formats, loop modes, components...). */
    this.names = {};
    for (const [group, values] of Object.entries(this.constants)) {
      const names = [];
      for (const [name, value] of Object.entries(values)) names[value] = name;
      this.names[group] = names;
    }
    const cCodes = Object.keys(this.constants.error);
    for (const code of C_CODES_USED) {
      if (!cCodes.includes(code)) throw new InterquakeError('wasm_mismatch', `the WASM does not list error '${code}'; rebuild it`);
    }
    for (const code of Object.keys(JS_ERRORS)) {
      if (cCodes.includes(code)) throw new InterquakeError('wasm_mismatch', `the WASM lists '${code}', a code of the JS library's; rebuild it`);
    }
    /** The codes an InterquakeError can carry: the C's and the JS library's. */
    this.errorCodes = new Set([...cCodes, ...Object.keys(JS_ERRORS)]);
  }

  /** An error the JS side raises: its code must be in the C's list or JS_ERRORS. */
  fail(code, message, where = {}) {
    if (!this.errorCodes.has(code)) throw new Error(`interquake bug: error code '${code}' is neither in IQ_ERROR_LIST nor in JS_ERRORS`);
    return new InterquakeError(code, message, where);
  }

  /** The error a C call left in this library's iq_error, as an InterquakeError. */
  lastError(file) {
    const err = this.read('iq_error', this.errorPtr);
    const code = this.names.error[err.code] ?? 'invalid_argument';
    return this.located(code, err.message, err, file);
  }

  /** An error from a code number a call returned (no iq_error filled). */
  codeError(codeNumber, message, file) {
    return this.located(this.names.error[codeNumber] ?? 'internal', message, {}, file);
  }

  // -- Calls: the one place a C export's result is tested (as meshoptimizer's decode() allocates,
  // copies, calls, releases and throws in one function). No other module calls an export.

  /**
   * Calls a C export that returns an iq_error_code (0: success) and throws its InterquakeError
   * otherwise: with the C's message and location when `args` pass this library's iq_error
   * (errorPtr), else with `message` (what was asked). Codes in `allow` are returned by name
   * instead of thrown; success returns null.
   */
  call(name, args, { message = name, file, allow } = {}) {
    const code = this.exports[name](...args);
    if (code === 0) return null;
    const error = args.includes(this.errorPtr) ? this.lastError(file) : this.codeError(code, message, file);
    if (allow?.includes(error.code)) return error.code;
    throw error;
  }

  /** Calls a C export that returns a handle or an address, or 0 after filling this library's iq_error (passed in `args`). */
  make(name, args, file) {
    const result = this.exports[name](...args);
    if (!result) throw this.lastError(file);
    return result;
  }

  /** Calls a C export that cannot fail: it returns a value (a count, a number, a live record's address) or nothing. */
  value(name, ...args) {
    return this.exports[name](...args);
  }

  /** Copies bytes into the heap and calls an iq_error_code export with (address, length, ...rest); see call(). */
  callWithBytes(bytes, name, rest, options = {}) {
    return this.withBytes(bytes, (ptr, n) => this.call(name, [ptr, n, ...rest], options), options.file);
  }

  /** Copies bytes into the heap and calls a handle- or address-returning export with (address, length, ...rest); see make(). */
  makeWithBytes(bytes, name, rest, file) {
    return this.withBytes(bytes, (ptr, n) => this.make(name, [ptr, n, ...rest], file), file);
  }

  located(code, detail, { offset = -1, line = 0, column = 0 } = {}, file) {
    const where = line ? ` (line ${line}, column ${column})` : offset >= 0 ? ` (byte ${offset})` : '';
    const prefix = file ? `${file}: ` : '';
    return new InterquakeError(code, `${prefix}${code}${where}: ${detail}`, { offset, line, column, file });
  }

  // -- Heap

  alloc(size, file) {
    const ptr = this.exports.iq_wasm_alloc(size);
    if (!ptr) throw this.fail('out_of_memory', `no memory for ${size} bytes`, { file });
    return ptr;
  }
  free(ptr) { this.exports.iq_wasm_free(ptr); }

  /** Copies bytes into the heap, calls fn(ptr, length), frees them; returns what fn returned. */
  withBytes(bytes, fn, file) {
    const ptr = this.alloc(bytes.length, file);
    try {
      this.bytes.set(bytes, ptr);
      return fn(ptr, bytes.length);
    } finally {
      this.free(ptr);
    }
  }

  /** A NUL-terminated string of the heap (names: UTF-8, or Latin-1 when not UTF-8). */
  cString(ptr) {
    if (!ptr) return '';
    const bytes = this.bytes;
    let end = ptr;
    while (bytes[end] !== 0) end++;
    return decodeText(bytes.subarray(ptr, end));
  }

  /** The uint32 (a size a call wrote) at ptr. */
  u32(ptr) { return READERS[3](this.view(), ptr); }

  /** The strings an array of count C string pointers at ptr points to. */
  strings(ptr, count) {
    const dv = this.view();
    const out = [];
    for (let i = 0; i < count; i++) out.push(this.cString(READERS[9](dv, ptr + SIZES[9] * i)));
    return out;
  }

  /** A copy of length bytes at ptr. */
  copy(ptr, length) { return this.bytes.slice(ptr, ptr + length); }

  /** The heap address of a typed array that is a view of the heap (the library's own arrays), or -1. */
  addressOf(view) {
    return view && view.buffer === this.exports.memory.buffer ? view.byteOffset : -1;
  }

  /** A typed-array view of the heap (detached when the heap grows). */
  array(Type, ptr, length) { return new Type(this.heap, ptr, length); }

  // -- Records, by the C's layout

  sizeof(record) {
    const r = this.records[record];
    if (!r) throw new InterquakeError('wasm_mismatch', `the WASM does not describe record ${record}; rebuild it`);
    return r.size;
  }

  /** Where a field of a record starts, in bytes. */
  offsetOf(record, field) {
    const f = this.records[record].fields.find((x) => x.name === field);
    if (!f) throw new InterquakeError('wasm_mismatch', `the WASM does not describe ${record}.${field}; rebuild it`);
    return f.offset;
  }

  /**
   * A record at ptr as a plain object: numbers, arrays, strings, nested records (pointers as
   * addresses); only the named fields when `only` is given.
   */
  read(record, ptr, dv = this.view(), only = null) {
    const out = {};
    for (const f of this.records[record].fields) {
      if (only && !only.includes(f.name)) continue;
      const at = ptr + f.offset;
      if (f.type === T_CHARS) {
        const bytes = this.bytes.subarray(at, at + f.count);
        const end = bytes.indexOf(0);
        out[f.name] = decodeText(end < 0 ? bytes : bytes.subarray(0, end));
      } else if (f.type === T_STR) {
        out[f.name] = this.cString(dv.getUint32(at, true));
      } else if (f.type === T_REC) {
        out[f.name] = f.count === 1 ? this.read(f.of, at, dv) : this.readArray(f.of, at, f.count, dv);
      } else if (f.count === 1) {
        out[f.name] = READERS[f.type](dv, at);
      } else {
        const values = [];
        for (let k = 0; k < f.count; k++) values.push(READERS[f.type](dv, at + k * SIZES[f.type]));
        out[f.name] = values;
      }
    }
    return out;
  }

  readArray(record, ptr, count, dv = this.view()) {
    const size = this.records[record].size;
    const out = [];
    for (let i = 0; i < count; i++) out.push(this.read(record, ptr + i * size, dv));
    return out;
  }

  /** Writes the fields of values that the record has (others are left as they are) at ptr. */
  write(record, ptr, values, dv = this.view()) {
    for (const f of this.records[record].fields) {
      const v = values[f.name];
      if (v === undefined) continue;
      const at = ptr + f.offset;
      if (f.type === T_REC && f.count === 1) this.write(f.of, at, v, dv);
      else if (f.type === T_REC) v.forEach((item, k) => this.write(f.of, at + k * this.records[f.of].size, item, dv));
      else if (f.count === 1) WRITERS[f.type](dv, at, v);
      else for (let k = 0; k < f.count; k++) WRITERS[f.type](dv, at + k * SIZES[f.type], v[k]);
    }
  }

  /** Zeroes a record and writes values into it. */
  fill(record, ptr, values) {
    this.bytes.fill(0, ptr, ptr + this.sizeof(record));
    this.write(record, ptr, values);
  }

  /**
   * Heap allocations freed together (for a call's nested records): each method returns a heap
   * address; free() releases them all. Strings are written NUL-terminated UTF-8.
   */
  arena(file) {
    const wasm = this;
    const owned = [];
    return {
      alloc(size) {
        const ptr = wasm.alloc(size, file);
        owned.push(ptr);
        return ptr;
      },
      bytes(bytes) {
        const ptr = this.alloc(bytes.length);
        wasm.bytes.set(bytes, ptr);
        return ptr;
      },
      string(text) {
        const encoded = utf8Encoder.encode(String(text));
        const ptr = this.alloc(encoded.length + 1);
        const heap = wasm.bytes;
        heap.set(encoded, ptr);
        heap[ptr + encoded.length] = 0;
        return ptr;
      },
      u32s(values) {
        const ptr = this.alloc(4 * values.length);
        wasm.array(Uint32Array, ptr, values.length).set(values);
        return ptr;
      },
      /** An array of records, each filled from one object of list. */
      records(record, list) {
        const size = wasm.sizeof(record);
        const ptr = this.alloc(size * list.length);
        list.forEach((values, i) => wasm.fill(record, ptr + i * size, values));
        return ptr;
      },
      free() {
        for (const ptr of owned.splice(0)) wasm.free(ptr);
      },
    };
  }

  /**
   * Allocates a record (zeroed, or filled from values), calls fn(ptr), frees it; returns fn's result.
   */
  withRecord(record, values, fn) {
    const ptr = this.alloc(this.sizeof(record));
    try {
      this.fill(record, ptr, values ?? {});
      return fn(ptr);
    } finally {
      this.free(ptr);
    }
  }
}

// The smallest module that uses a SIMD instruction (i32.const 0; i32x4.splat): engines
// without WASM SIMD reject it, and then the baseline build is loaded instead.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
  10, 8, 1, 6, 0, 65, 0, 253, 17, 11]);
export const simdSupported = () => {
  try { return WebAssembly.validate(SIMD_PROBE); } catch { return false; }
};

// How file: URLs are read: set by the Node entry (web/interquake.node.js), so that browser
// builds never see a node: import.
let fileReader = null;
/** Lets init() read file: URLs (the Node entry passes fs.readFile). */
export function setFileReader(read) { fileReader = read; }

// A native zlib deflate (Node's, set by web/interquake.node.js): (bytes, level) -> zlib stream.
// The PNG writer (web/core/images.js) uses it when set, fflate's otherwise.
let nativeDeflate = null;
export function setDeflate(deflate) { nativeDeflate = deflate; }
export function getDeflate() { return nativeDeflate; }

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

// What a response that is not WebAssembly holds, for the error message.
function describeBody(bytes, contentType) {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 64)).replace(/\s+/g, ' ').trim();
  const html = /^<(!doctype|html|head|body)/i.test(head);
  const type = contentType ? `${contentType}, ` : '';
  return `${html ? 'an HTML page' : 'not WebAssembly'} (${type}${bytes.length} bytes, starting "${head.slice(0, 40)}")`;
}

function unavailable(url, what) {
  return new InterquakeError('wasm_unavailable', `interquake.wasm from ${url}: ${what}`);
}

// The bytes behind a URL or Response, checked to be WebAssembly before anything compiles them.
async function responseBytes(response, url) {
  if (!response.ok) {
    const type = response.headers?.get?.('content-type');
    throw unavailable(url, `HTTP ${response.status}${type ? ` (${type})` : ''}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!WASM_MAGIC.every((b, i) => bytes[i] === b)) {
    throw unavailable(url, `${describeBody(bytes, response.headers?.get?.('content-type'))}; serve the .wasm next to the JS, or pass init({ wasm })`);
  }
  return bytes;
}

async function wasmSource(wasm) {
  if (wasm instanceof WebAssembly.Module) return { source: wasm, url: 'the WebAssembly.Module given' };
  if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) {
    const bytes = wasm instanceof ArrayBuffer ? new Uint8Array(wasm) : new Uint8Array(wasm.buffer, wasm.byteOffset, wasm.byteLength);
    if (!WASM_MAGIC.every((b, i) => bytes[i] === b)) throw unavailable('the bytes given', describeBody(bytes));
    return { source: bytes, url: 'the bytes given' };
  }
  // (A URL or its text never touches Response: in Node, the global's first use loads undici, ~12 ms.)
  if (typeof wasm !== 'string' && !(wasm instanceof URL) && typeof Response !== 'undefined' && wasm instanceof Response) {
    return { source: await responseBytes(wasm, wasm.url || 'the Response given'), url: wasm.url || 'the Response given' };
  }
  const url = wasm instanceof URL ? wasm : new URL(String(wasm), globalThis.location?.href);
  if (url.protocol === 'file:') {
    if (!fileReader) {
      throw unavailable(url, "a file: URL needs Node's file system: import 'interquake' (its Node entry), or pass init({ wasm: bytes })");
    }
    let bytes;
    try {
      bytes = new Uint8Array(await fileReader(url));
    } catch (err) {
      throw unavailable(url, `cannot be read (${err.code || err.message})`);
    }
    if (!WASM_MAGIC.every((b, i) => bytes[i] === b)) throw unavailable(url, describeBody(bytes));
    return { source: bytes, url };
  }
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw unavailable(url, `the fetch failed (${err.message})`);
  }
  return { source: await responseBytes(response, url), url };
}

/** Fetches (or takes), compiles and instantiates the WASM; resolves to a Wasm. */
export async function instantiate(wasm) {
  const { source, url } = await wasmSource(wasm);
  const imports = {
    // The heap grew: views are rebuilt lazily on the next access.
    env: { emscripten_notify_memory_growth() {} },
  };
  let result;
  try {
    result = await WebAssembly.instantiate(source, imports);
  } catch (err) {
    const size = source.byteLength !== undefined ? ` (${source.byteLength} bytes)` : '';
    throw unavailable(url, `not a complete, valid WebAssembly module${size}: ${err.message}`);
  }
  const instance = result.instance || result;
  const exports = instance.exports;
  if (typeof exports.iq_wasm_layout !== 'function') {
    throw new InterquakeError('wasm_mismatch', `${url} has no layout table: it is not this version of interquake.wasm; rebuild both`);
  }
  exports._initialize();
  return new Wasm(exports);
}
