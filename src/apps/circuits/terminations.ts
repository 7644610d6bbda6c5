import { toIsoMicro } from '../../core/fields/scalar.js';
import { recordChanges } from '../../ops/write/changelog.js';
import { distinct, rowsById, rowsWhereIn } from '../dcim/extensions/support.js';
import type { AppExtensions, WriteHookContext } from '../../ops/extensions.js';
import type { Row } from '../../core/registry/types.js';

/** The circuit fields that name its terminations, by side. */
const SIDES = [['A', 'circuit_termination_a'], ['Z', 'circuit_termination_z']] as const;

/**
 * After terminations are written, each circuit they belong (or belonged) to names its A and Z
 * terminations in `circuit_termination_a`/`_z`, and is recorded as changed, as the reference's
 * save signal does. A termination moved to the other side or another circuit leaves its old
 * place empty. Deleted terminations are cleared by the fields' SET_NULL.
 */
async function followTerminations({ services, exec, rc, plans }: WriteHookContext): Promise<void> {
  const circuitIds = distinct(plans.flatMap((p) => [p.row.circuit_id, p.before?.circuit_id]));
  if (circuitIds.length === 0) return;
  const circuit = services.registry.get('circuits.circuit');
  const columns = SIDES.map(([side, name]) => [side, circuit.fieldMap.get(name)!.column as string] as const);
  const terminations = await rowsWhereIn(services, exec, 'circuits.circuittermination', 'circuit_id', circuitIds);
  const now = toIsoMicro(new Date());
  const changes: { id: string; values: Record<string, unknown> }[] = [];
  for (const [id, row] of await rowsById(services, exec, 'circuits.circuit', circuitIds)) {
    const values: Record<string, unknown> = {};
    for (const [side, column] of columns) {
      const current = terminations.find((t) => t.circuit_id === id && t.term_side === side)?.id ?? null;
      if (row[column] !== current) values[column] = current;
    }
    if (Object.keys(values).length > 0) changes.push({ id, values: { ...values, last_updated: now } });
  }
  if (changes.length === 0) return;
  await services.store.updateMany(exec, circuit, changes);
  const changed = await services.store.byIds(exec, circuit, changes.map((c) => c.id));
  await recordChanges(services, exec, rc, circuit, 'update', changed as Row[]);
}

/** Circuits follow their terminations. */
export const circuitTerminationExtensions: AppExtensions = {
  'circuits.circuittermination': { afterWrite: followTerminations },
};
