import { type ChangeEvent, type FormEvent, useCallback, useRef, useState } from 'react';
import type { z } from 'zod';

/** A form's values: one string per text field (hidden values such as a token included). */
type Values = Record<string, string>;
type Schema = z.ZodType<unknown, Values>;

/** The contract schema itself, or a loader that imports it on first use (keeps zod out of a first load). */
export type SchemaSource<S extends Schema> = S | (() => Promise<S>);

export type FieldErrors<V extends Values> = Partial<Record<keyof V & string, string>>;

/** What `<FormTextField {...form.field('email')} />` needs. */
export interface FieldBinding {
  name: string;
  value: string;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  inputRef: (element: HTMLInputElement | null) => void;
}

export interface SchemaForm<S extends Schema> {
  values: z.input<S>;
  errors: FieldErrors<z.input<S>>;
  field: (name: keyof z.input<S> & string) => FieldBinding;
  /** `onSubmit={form.handleSubmit((data) => …)}`: `data` is the schema's parsed output. */
  handleSubmit: (onValid: (data: z.output<S>) => unknown) => (event?: FormEvent) => Promise<void>;
  /** Back to the default values, no errors. */
  reset: () => void;
  /** Starts loading a lazy schema (call when the user starts typing). */
  preload: () => void;
}

/** The first message of each field, as the form shows them (the issue's path joined by dots). */
export function fieldErrorsOf(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (path && !(path in errors)) errors[path] = issue.message;
  }
  return errors;
}

/**
 * A small form state validated by a contract schema (`schema.safeParse`), the same one the
 * server validates with. Like react-hook-form's defaults: nothing is checked before the first
 * submit; after it, every change re-validates; a failed submit focuses the first invalid
 * field. A lazy schema is loaded on `preload()` or on submit, which waits for it.
 */
export function useSchemaForm<S extends Schema>({
  schema,
  defaultValues,
}: {
  schema: SchemaSource<S>;
  defaultValues: z.input<S>;
}): SchemaForm<S> {
  type V = z.input<S>;
  const [values, setValues] = useState<V>(defaultValues);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const state = useRef({ values: defaultValues, submitted: false });
  const loaded = useRef<S | null>(typeof schema === 'function' ? null : schema);
  const loading = useRef<Promise<S> | null>(null);
  const source = useRef(schema);
  source.current = schema;
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const bindings = useRef(new Map<string, Omit<FieldBinding, 'value' | 'error'>>());

  const load = useCallback((): Promise<S> => {
    if (loaded.current) return Promise.resolve(loaded.current);
    const from = source.current;
    if (typeof from !== 'function') return Promise.resolve(from);
    loading.current ??= from().then(
      (s) => {
        loaded.current = s;
        return s;
      },
      (error: unknown) => {
        loading.current = null;
        throw error;
      },
    );
    return loading.current;
  }, []);

  const validate = useCallback((s: S, next: V) => {
    const result = s.safeParse(next);
    const found = (result.success ? {} : fieldErrorsOf(result.error.issues)) as FieldErrors<V>;
    setErrors(found);
    return { result, found };
  }, []);

  const field = (name: keyof V & string): FieldBinding => {
    let binding = bindings.current.get(name);
    if (!binding) {
      binding = {
        name,
        onChange: (event) => {
          const next = { ...state.current.values, [name]: event.target.value } as V;
          state.current.values = next;
          setValues(next);
          if (state.current.submitted && loaded.current) validate(loaded.current, next);
        },
        inputRef: (element) => {
          if (element) inputs.current.set(name, element);
          else inputs.current.delete(name);
        },
      };
      bindings.current.set(name, binding);
    }
    return { ...binding, value: String(values[name] ?? ''), error: errors[name] };
  };

  const handleSubmit: SchemaForm<S>['handleSubmit'] = (onValid) => async (event) => {
    event?.preventDefault();
    let s: S;
    try {
      s = await load();
    } catch {
      // The schema's chunk did not load (offline, new deploy): the server validates the
      // same schema, so the values go as typed and its answer is shown.
      await onValid(state.current.values as z.output<S>);
      return;
    }
    state.current.submitted = true;
    const { result, found } = validate(s, state.current.values);
    if (result.success) {
      await onValid(result.data);
      return;
    }
    const invalid = Object.keys(found)
      .map((name) => inputs.current.get(name))
      .filter((input): input is HTMLInputElement => !!input)
      .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    invalid[0]?.focus();
  };

  const reset = () => {
    state.current = { values: defaultValues, submitted: false };
    setValues(defaultValues);
    setErrors({});
  };

  const preload = () => {
    load().catch(() => undefined);
  };

  return { values, errors, field, handleSubmit, reset, preload };
}
