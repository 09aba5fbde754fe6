import fs from "node:fs";
import ts from "typescript";

/** One column as `server/db/schema.ts` declares it. */
export interface DeclaredColumn {
  name: string;
  /** The type admits `null`. */
  nullable: boolean;
  /** Wrapped in Kysely's `Generated<...>`: the database supplies a value when an insert leaves it out. */
  generated: boolean;
}

/**
 * Reads the tables of the Kysely `DB` interface in a schema file: each property of `DB` names a
 * table and points at the interface that lists its columns. The file is parsed, not run, since
 * interfaces do not exist at run time.
 */
export function declaredTables(file: string, rootInterface = "DB"): Map<string, DeclaredColumn[]> {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const root = interfaces.get(rootInterface);
  if (!root) throw new Error(`${file} declares no interface ${rootInterface}`);

  const tables = new Map<string, DeclaredColumn[]>();
  for (const table of propertiesOf(root)) {
    const typeName = table.type && ts.isTypeReferenceNode(table.type) ? table.type.typeName.getText(source) : undefined;
    const declaration = typeName ? interfaces.get(typeName) : undefined;
    if (!declaration) throw new Error(`${rootInterface}.${propertyName(table, source)} does not name an interface declared in ${file}`);
    tables.set(
      propertyName(table, source),
      propertiesOf(declaration).map((column) => describeColumn(column, source)),
    );
  }
  return tables;
}

function propertiesOf(declaration: ts.InterfaceDeclaration): ts.PropertySignature[] {
  return declaration.members.filter(ts.isPropertySignature);
}

function propertyName(property: ts.PropertySignature, source: ts.SourceFile): string {
  return ts.isStringLiteral(property.name) ? property.name.text : property.name.getText(source);
}

function describeColumn(property: ts.PropertySignature, source: ts.SourceFile): DeclaredColumn {
  let type = property.type;
  let generated = false;
  if (type && ts.isTypeReferenceNode(type) && type.typeName.getText(source) === "Generated" && type.typeArguments?.length === 1) {
    generated = true;
    type = type.typeArguments[0];
  }
  return { name: propertyName(property, source), nullable: type !== undefined && admitsNull(type), generated };
}

function admitsNull(type: ts.TypeNode): boolean {
  if (ts.isParenthesizedTypeNode(type)) return admitsNull(type.type);
  if (ts.isUnionTypeNode(type)) return type.types.some(admitsNull);
  return ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword;
}
