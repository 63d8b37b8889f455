// A row of toggle buttons (a radio group in effect), usable with Tab and Enter/Space.
interface Props<T extends string> { label: string; value: T; options: { value: T; label: string }[]; onChange: (value: T) => void }

export function Choice<T extends string>({ label, value, options, onChange }: Props<T>) {
  return (
    <div class="choice" role="group" aria-label={label}>
      {options.map((option) => (
        <button type="button" key={option.value} aria-pressed={option.value === value}
                onClick={() => onChange(option.value)}>{option.label}</button>
      ))}
    </div>
  );
}
