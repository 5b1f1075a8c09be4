/** A route table path as express and OpenTelemetry write it: `/api/items/{code}` -> `/api/items/:code`. */
export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
