import { Checkbox, Select, type SelectProps } from 'antd';
import type { ReactNode } from 'react';
import type { SetField } from './useToolProject.ts';

type BooleanKeys<Form> = { [K in keyof Form]-?: Form[K] extends boolean ? K : never }[keyof Form];

/** A checkbox bound to one yes/no field of a flow's form. */
export function FormCheck<Form>({
  form,
  set,
  name,
  disabled,
  testId,
  children,
}: {
  form: Form;
  set: SetField<Form>;
  name: BooleanKeys<Form>;
  disabled?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Checkbox
      checked={form[name] as boolean}
      disabled={disabled}
      onChange={(e) => set(name, e.target.checked as Form[typeof name])}
      data-testid={testId}
    >
      {children}
    </Checkbox>
  );
}

/** An options field: its label, then a select (named by the label when `labelId` is given). */
export function SelectField<V>({
  label,
  labelId,
  ...select
}: SelectProps<V> & { label: ReactNode; labelId?: string; 'data-testid'?: string }) {
  return (
    <div className="vw-vt-field">
      <span id={labelId}>{label}</span>
      <Select<V> aria-labelledby={labelId} {...select} />
    </div>
  );
}
