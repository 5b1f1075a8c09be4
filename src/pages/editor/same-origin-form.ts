import type { Request } from 'express';
import { AppError } from '../../app-error.js';

/**
 * A form post must come from this service's own page (the defence against cross-site request
 * forgery): a browser that sends `Sec-Fetch-Site` must say `same-origin`; one that does not must
 * send an `Origin` equal to the public URL's origin or to the origin the request was made to.
 * A post with neither header came from no browser page at all, and is refused as well: programs
 * publish through POST /api/store-kidlisp.
 */
export function checkSameOriginForm(req: Request, publicUrl: string): void {
  const site = req.get('sec-fetch-site');
  const origin = req.get('origin');
  const own = new Set([new URL(publicUrl).origin, `${req.protocol}://${req.get('host') ?? ''}`]);
  const allowed =
    site !== undefined ? site === 'same-origin' : origin !== undefined && own.has(origin);
  if (!allowed)
    throw new AppError(
      'ORIGIN_NOT_ALLOWED',
      'This form only publishes when it is sent from its own page on this site (Sec-Fetch-Site or Origin says where it came from). Programs publish through POST /api/store-kidlisp.',
    );
}
