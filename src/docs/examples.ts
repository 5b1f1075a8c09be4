import type { ExampleRequest } from '../http/routes/route-spec.js';
/** A request as the docs show it; the three snippets are written from it, so they always agree. */

export interface Snippets {
  curl: string;
  javascript: string;
  python: string;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function urlOf(baseUrl: string, request: ExampleRequest): string {
  const query = new URLSearchParams(
    Object.entries(request.query ?? {}).map(([key, value]) => [key, String(value)]),
  ).toString();
  return `${baseUrl}${request.path}${query ? `?${query}` : ''}`;
}

function curl(url: string, request: ExampleRequest): string {
  const lines = [
    request.method === 'GET'
      ? `curl ${request.stream ? '-N ' : ''}${shellQuote(url)}`
      : `curl -X ${request.method} ${shellQuote(url)}`,
  ];
  if (request.withToken) lines.push(`-H "Authorization: Bearer $TOKEN"`);
  if (request.body !== undefined) {
    lines.push(
      `-H 'Content-Type: application/json'`,
      `-d ${shellQuote(JSON.stringify(request.body))}`,
    );
  }
  return lines.join(' \\\n  ');
}

function javascript(url: string, request: ExampleRequest): string {
  if (request.stream)
    return `const response = await fetch(${JSON.stringify(url)}, { headers: { Accept: 'text/event-stream' } });\nfor await (const chunk of response.body.pipeThrough(new TextDecoderStream())) console.log(chunk);`;
  const headers = [
    ...(request.body !== undefined ? [`'Content-Type': 'application/json'`] : []),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: this is JavaScript source text for the example
    ...(request.withToken ? ['Authorization: `Bearer ${token}`'] : []),
  ];
  const options = [
    ...(request.method !== 'GET' ? [`method: '${request.method}'`] : []),
    ...(headers.length ? [`headers: { ${headers.join(', ')} }`] : []),
    ...(request.body !== undefined
      ? [`body: JSON.stringify(${JSON.stringify(request.body, null, 2).replace(/\n/g, '\n  ')})`]
      : []),
  ];
  const call = options.length
    ? `fetch(${JSON.stringify(url)}, {\n  ${options.join(',\n  ')},\n})`
    : `fetch(${JSON.stringify(url)})`;
  if (request.method === 'DELETE')
    return `const response = await ${call};\nconsole.log(response.status);`;
  return `const response = await ${call};\nconst data = await response.json();\nconsole.log(response.status, data);`;
}

/** JSON as a Python literal (True/False/None). */
function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value))
    return `[${value.map((item) => pythonLiteral(item, indent)).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)}`,
  );
  return entries.length ? `{\n${entries.join(',\n')},\n${indent}}` : '{}';
}

function python(url: string, request: ExampleRequest): string {
  if (request.stream)
    return `import requests\n\nwith requests.get(${JSON.stringify(url)}, stream=True) as response:\n    for line in response.iter_lines(decode_unicode=True):\n        print(line)`;
  const args = [JSON.stringify(url)];
  if (request.body !== undefined) args.push(`json=${pythonLiteral(request.body)}`);
  if (request.withToken) args.push(`headers={"Authorization": f"Bearer {token}"}`);
  const call = `requests.${request.method.toLowerCase()}(${args.join(', ')})`;
  const shown =
    request.method === 'DELETE' ? 'response.status_code' : 'response.status_code, response.json()';
  return `import requests\n\nresponse = ${call}\nprint(${shown})`;
}

export function snippets(baseUrl: string, request: ExampleRequest): Snippets {
  const url = urlOf(baseUrl, request);
  return {
    curl: curl(url, request),
    javascript: javascript(url, request),
    python: python(url, request),
  };
}
