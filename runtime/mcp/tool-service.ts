/**
 * `McpToolService`: one MCP server's tools as a Capability Seam provider. It describes and
 * performs; access, approval and the journal stay with the turn pipeline (docs/seam.md). The
 * schemas are the list read when its generation was prepared, so a generation serves exactly
 * those tools; `tools/list_changed` prepares a new generation instead (servers.ts).
 *
 * Approval (docs/mcp.md#approval-and-annotations): a server's `approval` option fixes the mode
 * of all its tools. Otherwise tools are `on-risk`, and the MCP annotations inform it:
 * `destructiveHint: true` (without `readOnlyHint: true`) raises it to `always` — asking more is
 * safe on an untrusted hint — and `readOnlyHint: true` waives the confirmation (`never`) only
 * when the server is trusted (`trustAnnotations: true`), since a hint is the server's own claim.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalMode, JsonSchema } from '../contract/manifest.js';
import { PROVIDER_SAFE_NAME } from '../contract/names.js';
import type { SeamScope, SeamToolContext, ToolExecutionResult, ToolSchema, ToolService } from '../seam/types.js';
import type { McpServerSpec } from './config.js';
import { McpCallError, type McpConnection } from './connection.js';

/** The mode a tool gets from its server's options and its annotations (rule above). */
export function mcpApproval(spec: McpServerSpec, annotations: Tool['annotations']): ApprovalMode {
  if (spec.approval !== undefined) return spec.approval;
  const readOnly = annotations?.readOnlyHint === true;
  if (annotations?.destructiveHint === true && !readOnly) return 'always';
  if (readOnly && annotations?.destructiveHint !== true && spec.trustAnnotations === true) return 'never';
  return 'on-risk';
}

/** Included by the server's `include` / `exclude` options. */
function selected(spec: McpServerSpec, name: string): boolean {
  if (spec.include !== undefined && !spec.include.includes(name)) return false;
  return !(spec.exclude ?? []).includes(name);
}

/** The schema as a provider sends it, minus `$schema` (the runtime compiles every schema as draft 2020-12). */
function parameters(schema: Tool['inputSchema']): JsonSchema {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return { ...rest, type: 'object' } as JsonSchema;
}

function text(result: CallToolResult): string | undefined {
  const content = result.content ?? [];
  if (content.length === 0 || !content.every((block) => block.type === 'text')) return undefined;
  return content.map((block) => (block as { text: string }).text).join('\n');
}

/** A successful call's output: structured content, else its text, else the content blocks. */
export function mcpOutput(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  return text(result) ?? result.content ?? [];
}

export class McpToolService implements ToolService {
  readonly id: string;
  readonly description: string;
  readonly #connection: McpConnection;
  readonly #tools: readonly Tool[];
  readonly #prefix: string;

  /** `tools`: the list this generation serves (default: the one listed when the connection opened). */
  constructor(connection: McpConnection, tools: readonly Tool[] = connection.tools) {
    this.#connection = connection;
    this.#tools = tools;
    this.id = `mcp:${connection.server}`;
    this.description = `tools of MCP server "${connection.server}"`;
    this.#prefix = connection.spec.prefix ?? '';
  }

  schema(_scope: SeamScope): readonly ToolSchema[] {
    const { server, spec } = this.#connection;
    const out: ToolSchema[] = [];
    for (const tool of this.#tools) {
      if (!selected(spec, tool.name)) continue;
      const name = `${this.#prefix}${tool.name}`;
      if (!PROVIDER_SAFE_NAME.test(name)) {
        throw new TypeError(
          `MCP server "${server}" lists tool "${tool.name}", whose name is not provider-safe (${PROVIDER_SAFE_NAME.source}); leave it out with exclude: ["${tool.name}"]`,
        );
      }
      const title = tool.title ?? tool.annotations?.title;
      out.push({
        type: 'function',
        function: {
          name,
          description: tool.description?.trim() || title || `Tool "${tool.name}" of MCP server "${server}"`,
          parameters: parameters(tool.inputSchema),
        },
        approval: mcpApproval(spec, tool.annotations),
        source: `mcp:${server}`,
        keywords: [...new Set([server, ...(title && title !== name ? [title] : [])])],
      });
    }
    return out;
  }

  async execute(
    _scope: SeamScope,
    toolName: string,
    input: unknown,
    context?: SeamToolContext,
  ): Promise<ToolExecutionResult> {
    const name = toolName.startsWith(this.#prefix) ? toolName.slice(this.#prefix.length) : toolName;
    const args = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
    try {
      const result = await this.#connection.call(name, args, context?.signal);
      if (result.isError === true) return { success: false, error: text(result) ?? 'the tool reported an error' };
      return { success: true, output: mcpOutput(result) };
    } catch (error) {
      if (error instanceof McpCallError)
        return { success: false, error: error.message, retryable: error.reason === 'timeout' };
      return { success: false, error: `MCP server "${this.#connection.server}" failed: ${String(error)}` };
    }
  }
}
