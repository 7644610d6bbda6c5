import { STRING_LOOKUPS, fail, ok } from './kind.js';
import type { KindBehaviour } from './kind.js';

/**
 * MAC addresses as the reference's MACAddressCharField keeps them: any EUI-48 text netaddr reads
 * (six 1-2 digit groups with `:` or `-`, three 1-4 digit groups with `:`, `-` or `.`, two 5-6
 * digit groups with `:` or `-`, or 11-12 bare hex digits) stored as `AA:BB:CC:DD:EE:FF`; empty
 * is stored as '' and rendered as null.
 */
const FORMATS: [RegExp, number][] = [
  [/^([0-9a-f]{1,2})(?::([0-9a-f]{1,2})){5}$/i, 8],
  [/^([0-9a-f]{1,2})(?:-([0-9a-f]{1,2})){5}$/i, 8],
  [/^[0-9a-f]{1,4}([:.-])[0-9a-f]{1,4}\1[0-9a-f]{1,4}$/i, 16],
  [/^[0-9a-f]{5,6}([:-])[0-9a-f]{5,6}$/i, 24],
  [/^[0-9a-f]{11,12}$/i, 48],
];

/** `AA:BB:CC:DD:EE:FF` for a MAC address text in one of the reference's formats, or null. */
export function normalizeMac(text: string): string | null {
  const value = text.trim();
  const format = FORMATS.find(([re]) => re.test(value));
  if (!format) return null;
  const bits = format[1];
  const words = bits === 48 ? [value] : value.split(/[:.-]/);
  const number = words.reduce((acc, word) => (acc << BigInt(bits)) | BigInt(`0x${word}`), 0n);
  if (number >= 1n << 48n) return null;
  const hex = number.toString(16).toUpperCase().padStart(12, '0');
  return hex.match(/../g)!.join(':');
}

const MAX_LENGTH = 18;

export const macAddressKind: KindBehaviour = {
  storage: 'text',
  optionsType: 'string',
  lookups: STRING_LOOKUPS,
  parse(value) {
    if (typeof value !== 'string') return fail('Not a valid string.');
    if (value.length > MAX_LENGTH) return fail(`Ensure this field has no more than ${MAX_LENGTH} characters.`);
    if (value.trim() === '') return ok('');
    const mac = normalizeMac(value);
    return mac ? ok(mac) : fail(`Invalid MAC address format: ${value.trim()}`);
  },
  render: (value) => (value === '' ? null : value),
  // An exact match compares the stored form (the reference prepares the value as the field does); part of one stays as given.
  parseFilter: (raw) => ok(normalizeMac(raw) ?? raw),
  nullInput: '',
};
