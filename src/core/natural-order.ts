/**
 * Natural-order keys, as the reference stores them in its hidden `_name` columns so that
 * "Site 2" sorts before "Site 10" and "Ethernet1/2" before "Ethernet1/10": digit runs are
 * left-padded with zeros, and interface names are keyed by their slot/position numbers first.
 */

/** How a natural-order key is built from its source text (AuthoredField `naturalize.style`). */
export type NaturalStyle = 'natural' | 'interface';

/** Every run of digits padded to `places` digits; the result cut to `maxLength`. Empty stays empty. */
export function naturalize(value: string, maxLength: number, places = 8): string {
  if (!value) return value;
  return value.replace(/\p{Nd}+/gu, (digits) => digits.padStart(places, '0')).slice(0, maxLength);
}

/**
 * `<type><slot>/<subslot>/<position>/<subposition>/<id>:<channel>.<vc><rest>`, each part optional:
 * the four slot numbers first (4 digits each, 9999 when absent, so bare names sort last), then
 * the type, then id, channel and vc (6 digits each, `......` when absent), then the rest naturalized.
 */
const INTERFACE_NAME = /^([^\p{Nd}.:]+)?(?:(\p{Nd}+)\/)?(?:(\p{Nd}+)\/)?(?:(\p{Nd}+)\/)?(?:(\p{Nd}+)\/)?(\p{Nd}+)?(?::(\p{Nd}+))?(?:\.(\p{Nd}+))?(.*)$/u;

export function naturalizeInterface(value: string, maxLength: number): string {
  const m = INTERFACE_NAME.exec(value);
  if (!m) return value;
  const [, type, slot, subslot, position, subposition, id, channel, vc, rest] = m;
  let out = [slot, subslot, position, subposition].map((part) => (part === undefined ? '9999' : part.padStart(4, '0'))).join('');
  out += type ?? '';
  out += [id, channel, vc].map((part) => (part === undefined ? '......' : part.padStart(6, '0'))).join('');
  if (rest && out.length < maxLength) out += naturalize(rest, maxLength - out.length);
  return out.slice(0, maxLength);
}

/** The key of `value` in `style`; null and undefined stay null. */
export function toNaturalKey(value: unknown, style: NaturalStyle, maxLength: number): string | null {
  if (value === null || value === undefined) return null;
  return style === 'interface' ? naturalizeInterface(String(value), maxLength) : naturalize(String(value), maxLength);
}
