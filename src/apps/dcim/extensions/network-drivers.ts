import { readFileSync } from 'node:fs';
import type { AppExtensions, ComputedLoader } from '../../../ops/extensions.js';

/**
 * Normalized network driver name -> tool -> that tool's name for the platform ("cisco_ios" ->
 * {"napalm": "ios", "netmiko": "cisco_ios", ...}). The facts are those netutils 1.17 publishes
 * in its library mapper (the reference's source for the field); the table is ours, a JSON file.
 */
const MAPPINGS = JSON.parse(readFileSync(new URL('../network-driver-mappings.json', import.meta.url), 'utf8')) as Record<string, Record<string, string>>;

/** A platform's mappings for its `network_driver`; `{}` when it has none or names an unknown driver. */
export function networkDriverMappings(driver: unknown): Record<string, string> {
  return typeof driver === 'string' && Object.hasOwn(MAPPINGS, driver) ? { ...MAPPINGS[driver] } : {};
}

const loadMappings: ComputedLoader = async ({ rows }) => new Map(rows.map((row) => [row.id, networkDriverMappings(row.network_driver)]));

/** `network_driver_mappings` on platforms, read from the table (no query). */
export const networkDriverExtensions: AppExtensions = {
  'dcim.platform': { computed: { network_driver_mappings: loadMappings } },
};
