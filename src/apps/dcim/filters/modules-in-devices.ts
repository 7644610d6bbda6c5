import { col } from '../../../db/query/sql-helpers.js';
import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import type { Registry } from '../../../core/registry/registry.js';

/**
 * How many modules deep the reference looks below a device: a module in a device's bay is one
 * deep, a module in that module's bay two (nautobot/dcim/constants.py MODULE_RECURSION_DEPTH_LIMIT).
 */
export const MODULE_DEPTH_LIMIT = 4;

type Eb = ExpressionBuilder<any, any>;
type Tables = { module: string; bay: string };
type Ids = SelectQueryBuilder<any, any, any>;
/** Devices given by id, or as a subquery of device ids (e.g. the members of some virtual chassis). */
export type Devices = string[] | ((eb: Eb) => Ids);

/** Bays of the devices, and of modules at most `depth - 1` deep in them. */
function baysBelow(eb: Eb, tables: Tables, devices: Devices, depth: number): Ids {
  return eb.selectFrom(tables.bay).select(col(tables.bay, 'id').as('bay')).where((inner): Expression<SqlBool> => inner.or([
    inner(col(tables.bay, 'parent_device_id'), 'in', typeof devices === 'function' ? devices(inner) : devices),
    ...(depth > 1 ? [inner(col(tables.bay, 'parent_module_id'), 'in', modulesBelow(inner, tables, devices, depth - 1))] : []),
  ]));
}

/** Modules installed in the devices at most `depth` deep: one SQL subquery nesting a level per depth. */
function modulesBelow(eb: Eb, tables: Tables, devices: Devices, depth: number): Ids {
  return eb.selectFrom(tables.module).select(col(tables.module, 'id').as('module')).where(col(tables.module, 'parent_module_bay_id'), 'in', baysBelow(eb, tables, devices, depth));
}

/**
 * A subquery of the ids of the modules installed in the devices, in their bays or in bays of
 * modules in them, down to `depth` (MODULE_DEPTH_LIMIT: the reference's `Device.all_modules`).
 */
export function modulesInDevices(registry: Registry, devices: Devices, depth = MODULE_DEPTH_LIMIT): (eb: Eb) => Ids {
  const tables = { module: registry.get('dcim.module').table, bay: registry.get('dcim.modulebay').table };
  return (eb) => modulesBelow(eb, tables, devices, depth);
}
