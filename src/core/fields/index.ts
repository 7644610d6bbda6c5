import { autoIdKind } from './auto-id.js';
import { choiceKind } from './choice.js';
import { ipAddressKind } from './ip.js';
import { macAddressKind } from './mac.js';
import { numberKinds } from './number.js';
import { relationKinds } from './relation.js';
import { scalarKinds } from './scalar.js';
import { textKinds } from './text.js';
import type { KindBehaviour } from './kind.js';
import type { FieldKind } from '../registry/types.js';

/** The kind -> behaviour table every layer reads. */
export const KINDS: Readonly<Record<FieldKind, KindBehaviour>> = Object.freeze({
  ...textKinds,
  ...numberKinds,
  ...scalarKinds,
  ...relationKinds,
  choice: choiceKind,
  ip_address: ipAddressKind,
  mac_address: macAddressKind,
  auto_id: autoIdKind,
} as Record<FieldKind, KindBehaviour>);

export type { KindBehaviour } from './kind.js';
