/**
 * What no error body may carry: stack frames, source paths, driver names, or SQL (in capitals,
 * as drivers print it: "Please select a receiver" is a message, "SELECT … FROM" is a leak).
 * A 5xx answers "An unexpected error occurred" and the details stay in the log (plugins/errors.ts).
 */
const TRACES =
  /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|syntax error|relation "|violates|duplicate key|PGlite|drizzle|postgres/i;
const SQL = /\bSELECT\b.*\bFROM\b|\bINSERT INTO\b|\bUPDATE\b.*\bSET\b|\bDELETE FROM\b/;

export function leaks(body: string): boolean {
  return TRACES.test(body) || SQL.test(body);
}
