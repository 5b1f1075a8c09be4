import { formatCount } from '../domain/format.js';
import { html, type SafeHtml } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';
import type { ApiInfo } from './api-info.js';
import type { EndpointDoc } from './endpoint-doc.js';
import type { FieldDoc } from './fields.js';

const anchor = (endpoint: EndpointDoc) =>
  `${endpoint.method}-${endpoint.path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function rule(field: FieldDoc): string {
  const parts = [
    field.enum ? `one of ${field.enum.join(', ')}` : '',
    field.maxLength !== undefined ? `max ${formatCount(field.maxLength)} characters` : '',
    field.minimum !== undefined ? `min ${field.minimum}` : '',
    field.maximum !== undefined ? `max ${field.maximum}` : '',
    field.default !== undefined ? `default ${JSON.stringify(field.default)}` : '',
  ];
  return parts.filter(Boolean).join('; ');
}

function fieldRows(fields: Record<string, FieldDoc>, prefix = ''): SafeHtml[] {
  return Object.entries(fields).flatMap(([name, field]) => [
    html`<tr><td><code>${prefix}${name}</code></td><td>${field.type}</td><td>${field.required ? 'yes' : 'no'}</td><td>${field.description}${rule(field) ? html` <span class="rule">(${rule(field)})</span>` : ''}</td></tr>`,
    ...(field.properties ? fieldRows(field.properties, `${prefix}${name}.`) : []),
  ]);
}

function fieldTable(
  caption: string,
  fields: Record<string, FieldDoc> | undefined,
): SafeHtml | string {
  if (!fields || Object.keys(fields).length === 0) return '';
  return html`<table><caption>${caption}</caption><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Meaning</th></tr></thead><tbody>${fieldRows(fields)}</tbody></table>`;
}

function endpointSection(endpoint: EndpointDoc): SafeHtml {
  const responseFields =
    'schema' in endpoint.responseBody
      ? (endpoint.responseBody.schema as Record<string, FieldDoc>)
      : undefined;
  return html`<section class="endpoint" id="${anchor(endpoint)}">
<h3><span class="method">${endpoint.method}</span> <code>${endpoint.path}</code></h3>
${endpoint.aliases ? html`<p class="aliases">Also at ${endpoint.aliases.map((alias, i) => html`${i ? ', ' : ''}<code>${alias}</code>`)}</p>` : ''}
<p>${endpoint.description}</p>
<p><strong>Authentication:</strong> ${endpoint.authentication}</p>
${fieldTable('Request body (JSON)', 'requestBody' in endpoint ? endpoint.requestBody?.schema : undefined)}
${fieldTable('Query parameters', 'queryParameters' in endpoint ? endpoint.queryParameters : undefined)}
<p><strong>Response</strong> ${endpoint.responseBody.status.join(' or ')}: ${endpoint.responseBody.description}</p>
${fieldTable('Response body', responseFields)}
<p><strong>Errors:</strong> ${endpoint.errors.map((group) => html`<span class="status">${group.status}</span> ${group.codes.join(', ')}; `)}</p>
${endpoint.examples.map(
  (example) => html`<h4>${example.title}</h4>
<details open><summary>curl</summary><pre><code>${example.curl}</code></pre></details>
<details><summary>JavaScript</summary><pre><code>${example.javascript}</code></pre></details>
<details><summary>Python</summary><pre><code>${example.python}</code></pre></details>
<details><summary>Response ${example.response.status}</summary><pre><code>${JSON.stringify(example.response.body, null, 2)}</code></pre></details>`,
)}
${'notes' in endpoint && endpoint.notes ? html`<ul class="notes">${endpoint.notes.map((note) => html`<li>${note}</li>`)}</ul>` : ''}
</section>`;
}

function mcpSection(mcp: ApiInfo['mcp']): SafeHtml {
  return html`<section id="mcp"><h2>${mcp.title}</h2>
<p>${mcp.description}</p>
<p>Package <code>${mcp.package}</code>, command <code>${mcp.command}</code>. Install: <code>${mcp.install}</code></p>
<table><caption>Environment</caption><tbody>${Object.entries(mcp.environment).map(([name, meaning]) => html`<tr><td><code>${name}</code></td><td>${meaning}</td></tr>`)}</tbody></table>
<table><caption>Tools</caption><thead><tr><th>Tool</th><th>Input</th><th>Description</th></tr></thead><tbody>
${mcp.tools.map((tool) => html`<tr><td><code>${tool.name}</code></td><td>${Object.entries(tool.input).map(([name, type]) => html`<code>${name}</code>: ${type}<br>`)}</td><td>${tool.description}</td></tr>`)}
</tbody></table>
<table><caption>Resources</caption><tbody>${mcp.resources.map((resource) => html`<tr><td><code>${resource.uri}</code></td><td>${resource.mimeType}</td><td>${resource.description}</td></tr>`)}</tbody></table>
<table><caption>Resource templates</caption><tbody>${mcp.resourceTemplates.map((template) => html`<tr><td><code>${template.uriTemplate}</code></td><td>${template.mimeType}</td><td>${template.description}</td></tr>`)}</tbody></table>
<table><caption>Prompts</caption><tbody>${mcp.prompts.map((prompt) => html`<tr><td><code>${prompt.name}</code></td><td>${prompt.arguments.join(', ')}</td><td>${prompt.description}</td></tr>`)}</tbody></table>
<h3>Client configuration</h3><pre><code>${Object.values(mcp.configuration)[0] ?? ''}</code></pre>
</section>`;
}

/** The documentation object as a readable page (same data as the JSON). */
export function apiDocsPage(info: ApiInfo): string {
  const body = html`<main class="docs">
<header><h1>${info.title}</h1><p class="meta">Version ${info.version}, updated ${info.updated}. Base URL <code>${info.baseURL}</code></p></header>
<p>${info.description}</p>
<nav><ul>
${info.endpoints.map((endpoint) => html`<li><a href="#${anchor(endpoint)}">${endpoint.method} ${endpoint.path}</a></li>`)}
<li><a href="#mcp">MCP server</a></li>
<li><a href="${info.documentation.openapi}">OpenAPI 3.1 (JSON)</a></li>
<li><a href="${info.documentation.json}">This documentation as JSON</a></li>
${info.graphql.graphiql ? html`<li><a href="${info.graphql.endpoint}">GraphQL (GraphiQL)</a></li>` : ''}
</ul></nav>
<section><h2>Authentication</h2><p>${info.authentication.description}</p><p><code>${info.authentication.header}</code></p></section>
<section><h2>Endpoints</h2>${info.endpoints.map(endpointSection)}</section>
${mcpSection(info.mcp)}
<section><h2>Errors</h2><p>${info.errors.description}</p><pre><code>${JSON.stringify(info.errors.shape, null, 2)}</code></pre>
<table><thead><tr><th>Code</th><th>Status</th></tr></thead><tbody>${info.errors.codes.map((entry) => html`<tr><td><code>${entry.code}</code></td><td>${entry.status}</td></tr>`)}</tbody></table></section>
<section><h2>Limits</h2><ul>${info.limits.map((limit) => html`<li>${limit.appliesTo}: ${limit.limit}</li>`)}</ul></section>
<section><h2>Notes</h2><ul>${info.notes.map((note) => html`<li>${note}</li>`)}</ul></section>
</main>`;
  return layout({ title: `${info.title} ${info.version}`, body, description: info.description });
}
