import { circuitsApp } from './circuits/index.js';
import { cloudApp } from './cloud/index.js';
import { cloudExtensions } from './cloud/extensions.js';
import { cloudDerivedFilters } from './cloud/filters.js';
import { wirelessApp } from './wireless/index.js';
import { wirelessExtensions } from './wireless/extensions.js';
import { wirelessDerivedFilters } from './wireless/filters.js';
import { circuitsDerivedFilters } from './circuits/filters.js';
import { circuitTerminationExtensions } from './circuits/terminations.js';
import { dcimApp } from './dcim/index.js';
import { dcimExtensions } from './dcim/extensions.js';
import { registerDcimRoutes } from './dcim/routes.js';
import { extrasApp } from './extras/index.js';
import { extrasExtensions } from './extras/extensions.js';
import { registerExtrasRoutes } from './extras/routes.js';
import { dynamicGroupFilters } from './extras/dynamic-groups/filter.js';
import { dynamicGroupRules } from './extras/dynamic-groups/rules.js';
import { tenancyApp } from './tenancy/index.js';
import { tenancyDerivedFilters } from './tenancy/filters.js';
import { usersApp } from './users/index.js';
import { usersExtensions } from './users/extensions.js';
import { registerUsersRoutes } from './users/routes.js';
import { virtualizationApp } from './virtualization/index.js';
import { virtualizationDerivedFilters } from './virtualization/filters.js';
import { ipamApp } from './ipam/index.js';
import { ipToInterfaceExtensions } from './ipam/rules/ip-to-interface.js';
import { IPAM_EXTENSIONS } from './ipam/extensions.js';
import { registerIpamRoutes } from './ipam/routes.js';
import { mirroredFieldExtensions } from './shared/mirrored-fields.js';
import { Registry } from '../core/registry/registry.js';
import type { AppDefinition } from '../core/registry/registry.js';
import type { FastifyInstance } from 'fastify';
import type { AppExtensions } from '../ops/extensions.js';
import type { Services } from '../ops/services.js';

/** Every application, in API-root order. */
export const APPS: AppDefinition[] = [circuitsApp, cloudApp, dcimApp, extrasApp, ipamApp, tenancyApp, usersApp, virtualizationApp, wirelessApp];

/** Builds the frozen registry of all applications. */
export function buildRegistry(apps: AppDefinition[] = APPS): Registry {
  return new Registry(apps);
}

/** Behaviour apps add beyond their declarations (filters, read-time values, write hooks). */
export const APP_EXTENSIONS: AppExtensions[] = [usersExtensions, dcimExtensions, circuitsDerivedFilters, circuitTerminationExtensions, virtualizationDerivedFilters, tenancyDerivedFilters, ipToInterfaceExtensions, ...extrasExtensions, ...IPAM_EXTENSIONS, dynamicGroupFilters(APPS), dynamicGroupRules, cloudExtensions, cloudDerivedFilters, wirelessExtensions, wirelessDerivedFilters, ...mirroredFieldExtensions(APPS)];

/** Extra endpoints of an app (`apps/<app>/routes.ts`), mounted before the generic model routes. */
export type AppRoutes = (app: FastifyInstance, services: Services) => void;

export const APP_ROUTES: AppRoutes[] = [registerUsersRoutes, registerDcimRoutes, registerIpamRoutes, registerExtrasRoutes];
