import type { Dialect } from '../dialects/dialect.js';
import type { Registry } from '../../core/registry/registry.js';

/**
 * Names on each circuit of a database written by an older build its A and Z terminations
 * (`circuit_termination_a`/`_z`, which that build left empty): one statement per side.
 */
export async function fillCircuitTerminationSides(dialect: Dialect, registry: Registry): Promise<void> {
  const circuit = registry.find('circuits.circuit');
  const termination = registry.find('circuits.circuittermination');
  if (!circuit || !termination) return;
  for (const [side, name] of [['A', 'circuit_termination_a'], ['Z', 'circuit_termination_z']]) {
    const column = circuit.fieldMap.get(name)?.column;
    if (!column) continue;
    await dialect.db.updateTable(circuit.table)
      .set((eb) => ({ [column]: eb.selectFrom(`${termination.table} as t`).select('t.id').whereRef('t.circuit_id', '=', `${circuit.table}.id`).where('t.term_side', '=', side).limit(1) }))
      .execute();
  }
}
