import type { ResolvedModel } from './types.js';

/**
 * The canonical in-memory id of a row of `model` for a client value (a UUID, or a positive
 * integer for integer-id models), or undefined when the value cannot be one. Derived from the
 * model's `id` field kind, so every layer accepts exactly the ids the model has.
 */
export function toRowId(model: ResolvedModel, value: unknown): string | undefined {
  const field = model.fieldMap.get('id');
  if (!field) return undefined;
  const parsed = field.behaviour.parse(value, field);
  return parsed.ok ? String(parsed.value) : undefined;
}

/** A driver's id value (integer ids come back as numbers) as the in-memory id text. */
export function fromStoredId(value: unknown): string {
  return String(value);
}

/** Why a client value is not an id of `model` (the id kind's message), or undefined when it is one. */
export function rowIdError(model: ResolvedModel, value: unknown): string | undefined {
  const field = model.fieldMap.get('id');
  const parsed = field ? field.behaviour.parse(value, field) : undefined;
  return parsed && !parsed.ok ? parsed.error : undefined;
}

/** An id as the API renders it: UUID text, or a JSON number for integer ids. */
export function renderRowId(model: ResolvedModel, id: string): unknown {
  const field = model.fieldMap.get('id');
  return field ? field.behaviour.render(id, field) : id;
}

/** An id as the reference's error texts quote a primary key: `UUID('…')`, or the bare integer. */
export function pkRepr(model: ResolvedModel, id: string): string {
  return model.id_type === 'integer' ? id : `UUID('${id}')`;
}
