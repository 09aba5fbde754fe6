import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from "kysely";
import { storableText } from "./storable-text";

function storable(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storable);
  return value;
}

class StorableTextTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return { ...node, value: storable(node.value) };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(storable) };
  }
}

/**
 * The last line of defence under every query on both databases: NUL bytes are dropped from
 * bound text and lone surrogates replaced, so text a form guard or route did not refuse (a
 * query string, a path segment, a JSON body) reads as "not found" instead of failing on
 * PostgreSQL with a 500. Forms are refused with a 400 before they get here (readForm).
 */
export class StorableTextPlugin implements KyselyPlugin {
  private readonly transformer = new StorableTextTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
