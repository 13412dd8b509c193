// The error every failure of the element becomes: a stable code and a readable message.

export class ViewerError extends Error {
  constructor(code, message, file) {
    super(message);
    this.name = 'ViewerError';
    this.code = code;
    if (file) this.file = file;
  }
}

// Every error the element reports carries a code from the one list (src/base/iq_errors.h): the
// library's own, or 'internal' for what should not happen (its message says what did).
export const asError = (err) => (err && typeof err.code === 'string' ? err
  : new ViewerError('internal', String(err?.message || err)));
