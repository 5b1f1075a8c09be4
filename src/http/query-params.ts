/**
 * The named query parameters, each as sent. A parameter given twice or with brackets
 * (`a=1&a=2`, `a[]=1`, `a[$ne]=x`) comes out as an array, whatever the query parser,
 * so validation rejects it as not a string and it never reaches the database.
 */
export function queryParams(query: object, names: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const bracket = key.indexOf('[');
    const name = bracket === -1 ? key : key.slice(0, bracket);
    if (!names.includes(name)) continue;
    picked[name] = bracket === -1 && !(name in picked) ? value : [picked[name], value];
  }
  return picked;
}
