#!/usr/bin/env node
/**
 * `publish-mcp`: the assistant-tool server over stdio, calling the service's REST API.
 * stdout carries protocol messages only; everything else goes to stderr.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { httpBackend } from './http-backend.js';
import { createAssistantServer } from './server.js';
import { readStdioSettings } from './stdio-settings.js';

const log = (message: string) => process.stderr.write(`publish-mcp: ${message}\n`);

try {
  const settings = readStdioSettings(process.env);
  const backend = httpBackend(settings);
  const onUnexpectedError = (error: unknown) =>
    log(
      `unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  serveStdio(() => createAssistantServer(backend, { onUnexpectedError }), {
    onerror: (error) => log(`transport error: ${error.message}`),
  });
  log(
    `serving on stdio for ${settings.serviceUrl}${settings.token ? ' (with a bearer token)' : ''}`,
  );
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
