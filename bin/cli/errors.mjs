// Errors the command line tells apart: bad usage (exit 2, with the command's help) and bad
// input (exit 1, one line). The library's own InterquakeError is the other exit-1 kind.
export class UsageError extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}
export class InputError extends Error {
  constructor(message, code = 'cannot_read') {
    super(message);
    this.code = code;
  }
}
