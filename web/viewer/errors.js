// The error every failure of the element becomes: a stable code and a readable message.

export class ViewerError extends Error {
  constructor(code, message, file) {
    super(message);
    this.name = 'ViewerError';
    this.code = code;
    if (file) this.file = file;
  }
}

/** Error codes only the element raises, with what each means (the library's are the C's list and
 * web/core/wasm.js's JS_ERRORS; tools/gen-types.mjs joins the three into the ErrorCode type). */
export const VIEWER_ERRORS = Object.freeze({
  webgl2_unavailable: 'the browser gives no WebGL2 context',
  fetch_failed: 'a URL could not be fetched (network error or HTTP status)',
  missing_main_file: 'none of the files given is a model or player to open',
  not_loaded: 'nothing is loaded yet',
  screenshot_failed: 'the picture could not be read back',
});

// Every error the element reports carries a code from those lists: the library's own, the
// element's, or 'internal' for what should not happen (its message says what did).
export const asError = (err) => (err && typeof err.code === 'string' ? err
  : new ViewerError('internal', String(err?.message || err)));
