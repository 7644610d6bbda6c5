import { existsSync, readFileSync } from 'node:fs';
import { REFERENCE_DIR } from '../helpers/prerequisite.js';

/**
 * The reference captures and catalogue (../shared/reference). Tests that read them skip (or fail,
 * under CI) through `needReference()` when the folder is missing; once it is there, a missing
 * catalogue file is an error, not an empty list.
 */
const WIRE = `${REFERENCE_DIR}/wire`;

type Json = Record<string, any>;

/** Keys the service adds on purpose (api-behaviour.md section 0). */
export const EXTRA_KEYS: Record<string, string[]> = { 'ipam.prefix': ['family', 'location'], 'ipam.ipaddress': ['family', 'vrf'] };

/** OPTIONS fields the service adds on purpose (prefix `location` is the reference's too, write-only there). */
export const EXTRA_OPTIONS: Record<string, string[]> = { 'ipam.prefix': ['family'], 'ipam.ipaddress': ['family', 'vrf'] };

/** Reference fields that point at applications this service does not serve (cloud, wireless). */
export const UNSERVED_KEYS: Record<string, string[]> = {};

const CATALOGUE = `${REFERENCE_DIR}/models`;

/** Catalogue `filters` (names beyond the model fields) of a model, less those of unserved apps (cloud, wireless) and the known missing ones. */
export function catalogueFilters(model: string): string[] {
  const [app, name] = model.split('.');
  if (SOURCE_FILTERS[model]) return SOURCE_FILTERS[model];
  const entry = (JSON.parse(readFileSync(`${CATALOGUE}/${app}.json`, 'utf8')).models as Json[]).find((m) => m.model === name);
  const known = KNOWN_MISSING_FILTERS[model] ?? [];
  return ((entry?.filters ?? []) as string[]).filter((f) => /^[a-z0-9_]+$/.test(f) && !known.includes(f));
}

/**
 * The apps the catalogue does not cover (cloud, wireless): the filters their reference filter sets
 * declare beyond model fields, read from the reference's source (nautobot/{cloud,wireless}/filters.py).
 */
const SOURCE_FILTERS: Record<string, string[]> = {
  'cloud.cloudaccount': ['q', 'provider', 'secrets_group', 'account_number', 'tags', 'dynamic_groups'],
  'cloud.cloudresourcetype': ['q', 'provider', 'content_types', 'tags'],
  'cloud.cloudnetwork': ['q', 'cloud_resource_type', 'cloud_account', 'cloud_services', 'parent', 'prefixes', 'tags'],
  'cloud.cloudnetworkprefixassignment': ['q', 'cloud_network', 'prefix'],
  'cloud.cloudservice': ['q', 'cloud_account', 'cloud_networks', 'cloud_resource_type', 'tags'],
  'cloud.cloudservicenetworkassignment': ['q', 'cloud_network', 'cloud_service'],
  'wireless.supporteddatarate': ['q', 'radio_profiles', 'has_radio_profiles', 'standard', 'rate', 'mcs_index'],
  'wireless.radioprofile': ['q', 'regulatory_domain', 'frequency', 'controller_managed_device_groups', 'has_controller_managed_device_groups', 'supported_data_rates'],
  'wireless.wirelessnetwork': ['q', 'mode', 'enabled', 'authentication', 'secrets_group', 'controller_managed_device_groups', 'has_controller_managed_device_groups', 'hidden', 'tenant', 'tenant_id', 'tenant_group'],
  'wireless.controllermanageddevicegroupwirelessnetworkassignment': ['q', 'controller_managed_device_group', 'wireless_network', 'vlan'],
  'wireless.controllermanageddevicegroupradioprofileassignment': ['q', 'controller_managed_device_group', 'radio_profile'],
};

/** Catalogue filters not served yet, by model; the catalogue test skips exactly these names. */
export const KNOWN_MISSING_FILTERS: Record<string, string[]> = {};

/** Differences found and not yet fixed, by model: their capture comparisons run as `todo`. */
export const KNOWN_DIFFERENCES: Record<string, string> = {};

/** Models whose CSV export does not import back yet: the round-trip test runs as `todo`. */
export const KNOWN_CSV_GAPS: Record<string, string> = {};

/** The capture of one model (`app.model`), or undefined when the reference has none. */
export function wireOf(model: string): Json | undefined {
  const file = `${WIRE}/${model}.json`;
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** The reference's sample object of a model at a depth, when the capture scenario made one. */
export function sampleOf(model: string, depth: 0 | 1): Json | undefined {
  const detail = wireOf(model)?.detail as Record<string, Json> | undefined;
  return detail ? Object.values(detail)[0]?.[`depth=${depth}`] : undefined;
}

/** Keys of an object without the ones either side may carry on purpose. */
export function keysOf(model: string, obj: Json, skip: Record<string, string[]>): string[] {
  const drop = new Set([...(skip[model] ?? []), ...(UNSERVED_KEYS[model] ?? [])]);
  return Object.keys(obj).filter((k) => !drop.has(k));
}

/** Number of natural-key parts in a natural slug (the trailing 4-hex id part left out). */
export function slugParts(slug: string): number {
  return slug.split('_').length - 1;
}
