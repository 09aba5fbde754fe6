import { Form, useNavigate } from "@remix-run/react";
import * as controls from "./controls.css";
import * as css from "./magazine.css";

interface Props {
  years: number[];
  /** The selected year's issues, in calendar order. */
  months: { label: string; url: string }[];
  selectedYear: number;
  selectedMonth: number;
}

/**
 * Year and month selects that go to the chosen issue. Without JS it is a GET form whose
 * answer redirects to the issue; with JS choosing a year shows its months and choosing a
 * month opens the issue.
 */
export function IssueFinder({ years, months, selectedYear, selectedMonth }: Props) {
  const navigate = useNavigate();
  return (
    <Form method="get" action="/magazine/find" className={css.finder} aria-label="Issue finder">
      <label className={css.field}>
        Year
        <select
          name="year"
          className={css.select}
          defaultValue={selectedYear}
          key={selectedYear}
          onChange={(e) => navigate(`/magazine?year=${e.currentTarget.value}`, { preventScrollReset: true })}
        >
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
      </label>
      <label className={css.field}>
        Issue
        <select
          name="month"
          className={css.select}
          defaultValue={selectedMonth}
          key={`${selectedYear}-${selectedMonth}`}
          onChange={(e) => {
            const target = months[Number(e.currentTarget.value)];
            if (target) navigate(target.url);
          }}
        >
          {months.map((m, i) => (
            <option key={m.url} value={i}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      {/* The month list is this year's: the answer reads the chosen month in it (magazine_.find.tsx). */}
      <input type="hidden" name="shown" value={selectedYear} />
      <button type="submit" className={controls.primaryButton}>
        Go to issue
      </button>
    </Form>
  );
}
