import express, { type RequestHandler } from 'express';
import { AppError } from '../app-error.js';
import { MAX_BODY_BYTES } from './body-limit.js';
import { sendError } from './respond.js';

const isJsonType = (contentType: string) =>
  /^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(contentType);

/** A POST body is JSON, or has no content type at all (read as JSON); anything else is a 415. */
export function jsonBody(): RequestHandler[] {
  const requireJson: RequestHandler = (req, res, next) => {
    const contentType = req.headers['content-type'];
    if (req.method === 'POST' && contentType !== undefined && !isJsonType(contentType)) {
      sendError(
        res,
        new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the body as JSON (Content-Type: application/json).',
        ),
      );
      return;
    }
    next();
  };
  const parse = express.json({
    limit: MAX_BODY_BYTES,
    strict: false,
    type: (req) => {
      const contentType = req.headers['content-type'];
      return contentType === undefined || isJsonType(contentType);
    },
  });
  return [requireJson, parse];
}
