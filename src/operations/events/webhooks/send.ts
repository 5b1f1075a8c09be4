import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { RefusedAddress, resolveDeliveryAddress } from './address-guard.js';

/** A receiver has this long to answer, headers and body. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer kept in the delivery log. */
export const RESPONSE_BODY_KEPT = 512;

export interface SendResult {
  status: number | null;
  error: string | null;
  body: string | null;
  ms: number;
}

/**
 * POSTs one attempt. The connection goes to the address checked just before (no second DNS
 * lookup to rebind); a redirect is an answer like any other (3xx: a failure), never followed;
 * at most RESPONSE_BODY_KEPT bytes of the answer are read before the connection is dropped.
 */
export async function sendAttempt(options: {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
}): Promise<SendResult> {
  const started = performance.now();
  const done = (fields: Omit<SendResult, 'ms'>): SendResult => ({
    ...fields,
    ms: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(options.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    return done({ status: null, error: `not an http(s) URL: ${options.url}`, body: null });
  }
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await resolveDeliveryAddress(url.hostname, options.allowPrivate);
  } catch (error) {
    const message =
      error instanceof RefusedAddress ? error.message : `DNS: ${(error as Error).message}`;
    return done({ status: null, error: message, body: null });
  }
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (fields: Omit<SendResult, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(fields));
    };
    const req = request(
      url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'publish-gateway-webhooks',
          'content-length': Buffer.byteLength(options.body),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const status = res.statusCode ?? null;
        const answer = () => {
          const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_KEPT).toString('utf8');
          const ok = status !== null && status >= 200 && status < 300;
          finish({ status, error: ok ? null : `HTTP ${status}`, body: body || null });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          if (kept >= RESPONSE_BODY_KEPT) answer();
        });
        res.on('end', answer);
        res.on('error', answer);
      },
    );
    const timer = setTimeout(
      () =>
        finish({ status: null, error: `no answer within ${DELIVERY_TIMEOUT_MS} ms`, body: null }),
      DELIVERY_TIMEOUT_MS,
    );
    req.on('error', (error) => finish({ status: null, error: error.message, body: null }));
    req.end(options.body);
  });
}
