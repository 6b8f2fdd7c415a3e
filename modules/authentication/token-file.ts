/** The static token file (`--token-auth-file`): CSV rows `token,user,uid[,"group1,group2,..."]`. */
import type { UserInfo } from '../api/index.js';

/** Splits one CSV line, honouring double quotes (a quoted field may hold commas; "" is a quote). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

export function parseTokenFile(text: string, source = 'token file'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const fields = csvFields(line).map((f) => f.trim());
    if (fields.length < 3) {
      throw new Error(
        `${source}, line ${index + 1}: expected at least 3 columns (token, user name, user ID)`,
      );
    }
    const [token, name, uid, groupField] = fields;
    if (!token) throw new Error(`${source}, line ${index + 1}: empty token`);
    const groups = groupField
      ? groupField
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean)
      : [];
    tokens.set(token, { name, uid, groups });
  });
  return tokens;
}
