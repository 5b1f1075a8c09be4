import type { CallToolResult } from '@modelcontextprotocol/server';
import type { KidlispRender } from './backend.js';

/**
 * render_kidlisp's result: one PNG image content item per frame, then the structured content
 * (everything but the pictures) and its JSON as text, as every tool of this server answers it.
 */
export function renderResult(render: KidlispRender): CallToolResult {
  const { images, ...structured } = render;
  return {
    content: [
      ...images.map((image) => ({
        type: 'image' as const,
        data: image.data,
        mimeType: image.mimeType,
      })),
      { type: 'text' as const, text: JSON.stringify(structured, null, 2) },
    ],
    structuredContent: structured,
  };
}
