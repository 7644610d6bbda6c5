/**
 * A yes/no filter value as the reference's plain BooleanFilter reads it (Django's
 * NullBooleanSelect): the last value given; `true`, `True` or `2` is yes, `false`, `False` or `3`
 * is no, and anything else (`1`, `yes`, empty) is neither, so the filter is left out.
 */
export function nullBoolean(values: readonly string[]): boolean | undefined {
  const value = values[values.length - 1];
  if (value === 'true' || value === 'True' || value === '2') return true;
  if (value === 'false' || value === 'False' || value === '3') return false;
  return undefined;
}
