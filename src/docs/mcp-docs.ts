import type { z } from 'zod';
import {
  assistantPackage,
  assistantPrompts,
  assistantResources,
  assistantResourceTemplates,
  assistantTools,
} from '../operations/assistant-catalog.js';
import { inputJsonSchema, type JsonSchema, outputJsonSchema } from './fields.js';

/** `{source: 'string', name: 'string (optional)'}`: the informal field map the reference docs show. */
function informalFields(schema: JsonSchema): Record<string, string> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.fromEntries(
    Object.entries(properties).map(([name, field]) => {
      const type =
        field.type === 'array'
          ? `${((field.items as JsonSchema | undefined)?.type as string | undefined) ?? 'object'}[]`
          : String(field.type ?? 'any');
      return [name, required.has(name) ? type : `${type} (optional)`];
    }),
  );
}

const toolOutput = (name: string, schema: z.ZodType) =>
  name === 'get_api_info'
    ? 'the API documentation object (this document)'
    : informalFields(outputJsonSchema(schema));

/** The client configuration, pointed at this service. */
function clientConfiguration(baseUrl: string) {
  const [serverName, entry] =
    Object.entries(assistantPackage.clientConfiguration.mcpServers)[0] ?? [];
  if (!serverName || !entry) throw new Error('the assistant catalog has no client configuration');
  return {
    mcpServers: { [serverName]: { ...entry, env: { ...entry.env, SERVICE_URL: baseUrl } } },
  };
}

export function mcpDocs(baseUrl: string) {
  const configuration = JSON.stringify(clientConfiguration(baseUrl), null, 2);
  return {
    title: 'MCP server',
    description:
      'A Model Context Protocol server that exposes the publishing operations as tools, plus resources, resource templates and prompts. ' +
      `Run it as a command (stdio) from the installable package, or connect to ${baseUrl}${assistantPackage.httpPath} (Streamable HTTP).`,
    package: assistantPackage.name,
    command: assistantPackage.bin,
    install: assistantPackage.install,
    endpoint: `${baseUrl}${assistantPackage.httpPath}`,
    environment: assistantPackage.environment,
    tools: Object.values(assistantTools).map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      input: informalFields(inputJsonSchema(tool.inputSchema)),
      output: toolOutput(tool.name, tool.outputSchema),
      readOnly: tool.readOnly,
      since: tool.version,
    })),
    resources: Object.values(assistantResources).map((resource) => ({
      uri: resource.uri,
      name: resource.name,
      title: resource.title,
      description: resource.description,
      mimeType: resource.mimeType,
      since: resource.version,
    })),
    resourceTemplates: Object.values(assistantResourceTemplates).map((template) => ({
      uriTemplate: template.uriTemplate,
      name: template.name,
      title: template.title,
      description: template.description,
      mimeType: template.mimeType,
      since: template.version,
    })),
    prompts: Object.values(assistantPrompts).map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      arguments: prompt.arguments.map(
        (argument) => `${argument.name}${argument.required ? ' (required)' : ''}`,
      ),
      since: prompt.version,
    })),
    /** JSON text per client, as the reference docs give it: paste into the client's MCP settings. */
    configuration: {
      'Claude Desktop': configuration,
      'Claude Code': configuration,
      Cursor: configuration,
    },
  };
}
