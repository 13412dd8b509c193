// The error every failure of the element becomes: a stable code and a readable message.

export class ViewerError extends Error {
  constructor(code, message, file) {
    super(message);
    this.name = 'ViewerError';
    this.code = code;
    if (file) this.file = file;
  }
}

export const asError = (err) => (err && err.code ? err : new ViewerError('error', String(err?.message || err)));
