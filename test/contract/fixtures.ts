import { ASSIGNMENT_FIXTURES } from './assignment-fixtures.js';
import { CABLE_FIXTURES } from './cable-fixtures.js';
import { CIRCUIT_FIXTURES } from './circuit-fixtures.js';
import { CLOUD_WIRELESS_FIXTURES } from './cloud-wireless-fixtures.js';
import { DCIM_FIXTURES, DCIM_MORE_FIXTURES } from './dcim-fixtures.js';
import { IPAM_FIXTURES } from './ipam-fixtures.js';
import type { TestApp } from '../helpers/app.js';

/** Per-model fixtures for the generated contract suite: how to make a valid object. */
export type Fixture = {
  model: string;
  path: string;
  /** Prepares related objects; returns what `make` needs. */
  setup?: (t: TestApp) => Promise<Record<string, unknown>>;
  make: (i: number, ctx: Record<string, unknown>) => Record<string, unknown>;
  /** A field to PATCH and filter on: a free string field unless `edit` is given. */
  text: string;
  /**
   * For models without a free string field (assignments): the value PATCH, PUT and bulk PATCH
   * write to `text`, by the suite's tag. Rendered objects are compared by `id`.
   */
  edit?: (tag: Edit, ctx: Record<string, unknown>) => unknown;
};

/** The writes of the generic suite that change the `text` field. */
export type Edit = 'patched' | 'put' | 'bulk';

export const FIXTURES: Fixture[] = [
  { model: 'tenancy.tenantgroup', path: '/api/tenancy/tenant-groups/', make: (i) => ({ name: `group-${i}`, description: `desc ${i}` }), text: 'description' },
  { model: 'tenancy.tenant', path: '/api/tenancy/tenants/', make: (i) => ({ name: `tenant-${i}`, description: `desc ${i}` }), text: 'description' },
  { model: 'extras.tag', path: '/api/extras/tags/', make: (i) => ({ name: `tag-${i}`, content_types: ['dcim.location'], description: `desc ${i}` }), text: 'description' },
  { model: 'extras.status', path: '/api/extras/statuses/', make: (i) => ({ name: `status-${i}`, content_types: ['dcim.location'], description: `desc ${i}` }), text: 'description' },
  { model: 'extras.role', path: '/api/extras/roles/', make: (i) => ({ name: `role-${i}`, content_types: ['dcim.location'], description: `desc ${i}`, weight: i }), text: 'description' },
  { model: 'dcim.locationtype', path: '/api/dcim/location-types/', make: (i) => ({ name: `type-${i}`, description: `desc ${i}`, nestable: true }), text: 'description' },
  {
    model: 'dcim.location',
    path: '/api/dcim/locations/',
    setup: async (t) => {
      const res = await t.call('POST', '/api/dcim/location-types/', { name: 'Site', nestable: true, content_types: ['dcim.location'] });
      return { type: res.body.id };
    },
    make: (i, ctx) => ({ name: `site-${i}`, location_type: ctx.type, status: 'Active', description: `desc ${i}` }),
    text: 'description',
  },
  { model: 'users.user', path: '/api/users/users/', make: (i) => ({ username: `user-${i}`, first_name: `First ${i}`, password: 'pw-secret-123' }), text: 'first_name' },
];

FIXTURES.push(...CABLE_FIXTURES);
FIXTURES.push(...DCIM_FIXTURES, ...DCIM_MORE_FIXTURES, ...ASSIGNMENT_FIXTURES);
FIXTURES.push(...CIRCUIT_FIXTURES);
FIXTURES.push(...IPAM_FIXTURES);
FIXTURES.push(...CLOUD_WIRELESS_FIXTURES);
