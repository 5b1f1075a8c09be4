import { z } from 'zod';
import { optional } from '../validation.js';

/**
 * `remixOf` on every publish (docs/contract.md, Remix lineage): the address of the work the new
 * one started from, `clock~<code>` for a melody. Absent, null or blank: an original.
 */
export const remixOfField = optional(
  z
    .string({
      error: 'remixOf must be the code of a published work (clock~<code> for a melody).',
    })
    .trim()
    .max(200, 'remixOf is longer than 200 characters.'),
);

/** What `remixOf` means to a publish's description, on every face. */
export const REMIX_OF_DESCRIPTION =
  'Optional: the code of the published work this one was remixed from (clock~<code> for a melody). It must exist (otherwise ITEM_NOT_FOUND, 404 on REST, or ITEM_REMOVED, 410, for a work taken down; nothing is stored); when the same content already exists, its lineage stays as it was.';
