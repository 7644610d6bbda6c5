import type { ResolvedField, ResolvedModel } from '../../core/registry/types.js';

/** A name GraphQL accepts (and does not reserve for introspection). */
export function isGraphqlName(name: string): boolean {
  return /^[_A-Za-z][_0-9A-Za-z]*$/.test(name) && !name.startsWith('__');
}

/** Latin letters without their accents, the rest as given (the reference transliterates with unidecode). */
function toAscii(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/**
 * A verbose name as a field name, as the reference's `str_to_var_name` (Django's slugify with
 * dashes turned to underscores): `IP addresses` -> `ip_addresses`, `VRF-device assignments` ->
 * `vrf_device_assignments`.
 */
export function toVarName(verboseName: string): string {
  const slug = toAscii(verboseName).replace(/[^\x00-\x7f]/g, '').toLowerCase().replace(/[^\w\s-]/g, '').trim().replace(/[-\s]+/g, '-');
  return slug.replace(/-/g, '_');
}

/** Python's `str.title()`: each run of letters starts upper case and goes on lower case. */
function title(text: string): string {
  return text.toLowerCase().replace(/(^|[^A-Za-z])([a-z])/g, (_m, before: string, letter: string) => `${before}${letter.toUpperCase()}`);
}

/** graphene's `to_camel_case`: `Feed_Leg` -> `FeedLeg` (the first part kept as it is). */
function toCamelCase(snake: string): string {
  const [first, ...rest] = snake.split('_');
  return first + rest.map((part) => (part ? part.charAt(0).toUpperCase() + part.slice(1).toLowerCase() : '_')).join('');
}

/** The object type of a model: the reference's `<ModelClass>Type` (`DeviceType`, `IPAddressType`). */
export function objectTypeName(model: ResolvedModel): string {
  return `${model.class_name}Type`;
}

/**
 * The enum of a choice field, as graphene-django names it with `DJANGO_CHOICE_FIELD_ENUM_V3_NAMING`:
 * `<App><ModelClass><Field>Choices` (`DcimInterfaceModeChoices`).
 */
export function choiceEnumName(model: ResolvedModel, field: ResolvedField): string {
  return `${toCamelCase(title(model.app))}${model.class_name}${toCamelCase(title(field.name))}Choices`;
}

/**
 * The enum value names of a choice set, as graphene-django makes them: the value upper-cased with
 * every run of other characters as `_`, `A_` before a name GraphQL refuses (`1000base-t` ->
 * `A_1000BASE_T`), and a repeated name suffixed with the count so far.
 */
export function choiceValueNames(values: readonly (string | number)[]): string[] {
  const names: string[] = [];
  for (const value of values) {
    let name = toAscii(String(value)).replace(/[^A-Za-z0-9_]+/g, '_').toUpperCase();
    if (!isGraphqlName(name)) name = `A_${name}`;
    while (names.includes(name)) name += `_${names.length}`;
    names.push(name);
  }
  return names;
}
