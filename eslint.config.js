import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import playwright from "eslint-plugin-playwright";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import testingLibrary from "eslint-plugin-testing-library";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // Vite writes its bundled config beside vite.config.ts for a moment while it builds.
  { ignores: ["build/", "data/", "test-results/", ".cache/", "public/build/", "*.timestamp-*.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["app/**/*.tsx", "tests/components/**/*.tsx"],
    ...react.configs.flat.recommended,
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      // TypeScript checks props.
      "react/prop-types": "off",
      // The spec's copy has apostrophes, and must read exactly as written.
      "react/no-unescaped-entities": "off",
      // rel="noopener" is the safety; the referrer stays, for links to our own pages.
      "react/jsx-no-target-blank": ["error", { allowReferrer: true }],
    },
    settings: { react: { version: "18" } },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: { ...reactHooks.configs.recommended.rules, ...jsxA11y.flatConfigs.recommended.rules },
  },
  {
    files: ["tests/components/**/*.tsx"],
    ...testingLibrary.configs["flat/react"],
    rules: {
      ...testingLibrary.configs["flat/react"].rules,
      // Vitest runs without globals, so Testing Library cannot register its own cleanup.
      "testing-library/no-manual-cleanup": "off",
    },
  },
  {
    files: ["e2e/**/*.ts"],
    ...playwright.configs["flat/recommended"],
    rules: {
      ...playwright.configs["flat/recommended"].rules,
      // Every spec runs with and without JavaScript and branches on which, on purpose.
      "playwright/no-conditional-in-test": "off",
      "playwright/no-conditional-expect": "off",
      // axe(page) is the assertion of the accessibility tests; shoot() of the screenshots (each page answers, with its heading).
      "playwright/expect-expect": ["warn", { assertFunctionNames: ["axe", "shoot"] }],
    },
  },
);
