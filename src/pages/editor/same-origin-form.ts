import type { Request } from 'express';
import { AppError } from '../../app-error.js';
import { fromOwnPages } from '../../http/request-facts.js';

/**
 * A form post must come from this service's own page (see `fromOwnPages`): otherwise 403
 * ORIGIN_NOT_ALLOWED. Programs publish through POST /api/store-kidlisp.
 */
export function checkSameOriginForm(req: Request, publicUrl: string): void {
  if (!fromOwnPages(req, publicUrl))
    throw new AppError(
      'ORIGIN_NOT_ALLOWED',
      'This form only publishes when it is sent from its own page on this site (Sec-Fetch-Site or Origin says where it came from). Programs publish through POST /api/store-kidlisp.',
    );
}
