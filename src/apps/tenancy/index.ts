import { tenant, tenantGroup } from './models/tenants.js';
import type { AppDefinition } from '../../core/registry/registry.js';

/** Tenancy: tenants and their groups. */
export const tenancyApp: AppDefinition = { label: 'tenancy', models: [tenantGroup, tenant], searchable_models: ['tenant'] };
