import { z } from 'zod';
import { bool, duration } from '../../core/framework/fields.js';
import type { AuthContext } from '../context/auth-context.js';
import { documentFolder } from '../context/stored-document.js';
import { suppliedFields } from './supplied.js';

/** The two tidied lists, named as in their paths (`tidy/<kind>`, `config/tidy/<kind>`). */
export const TIDY_KINDS = ['identity-accesslist', 'roletag-denylist'] as const;
export type TidyKind = (typeof TIDY_KINDS)[number];

/** 72h for both lists, manual and periodic alike. */
export const DEFAULT_SAFETY_BUFFER = 72 * 3600;

const storedTidyConfig = z.object({
  /** Seconds. */
  safety_buffer: z.number(),
  disable_periodic_tidy: z.boolean(),
});

/** The stored `config/tidy/<kind>`. */
export type TidyConfig = z.infer<typeof storedTidyConfig>;

/** The tidy settings: one document per tidied list, named by its kind. */
export const tidyConfigDocuments = documentFolder({ folder: 'config/tidy/', shape: storedTidyConfig });

export const tidyConfigFields = z.object({
  safety_buffer: duration().optional().meta({
    description: 'How long past its expiration an entry is kept by the periodic tidy.',
    default: DEFAULT_SAFETY_BUFFER,
  }),
  disable_periodic_tidy: bool().optional().meta({
    description: "Leave this list out of `periodic()`'s tidy.",
    default: false,
  }),
});

/** A create starts from the defaults; an update changes only the supplied fields. */
export function applyTidyConfigFields(
  current: TidyConfig | undefined,
  fields: z.output<typeof tidyConfigFields>,
): TidyConfig {
  return { safety_buffer: DEFAULT_SAFETY_BUFFER, disable_periodic_tidy: false, ...current, ...suppliedFields(fields) };
}

export async function readTidyConfig(context: AuthContext, kind: TidyKind): Promise<TidyConfig | undefined> {
  return context.read(tidyConfigDocuments.named(kind));
}
