/** Names and values written into DDL, which takes no bind parameters. */

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** a standard-conforming string literal (standard_conforming_strings is on since PostgreSQL 9.1) */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
