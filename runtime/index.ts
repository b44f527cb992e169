/**
 * `zhin-gen/runtime`: the thin runtime that serves generated capability manifests. No Node
 * built-ins and no compiler code are reachable from here (it runs in any JS host).
 */
export * from './contract/manifest.js';
export type {
  JsonSchemaValidator,
  JsonValidateFunction,
  JsonValidationError,
  JsonValidatorModule,
} from './validators/types.js';
export * from './contract/define.js';

export {
  PermissionHost,
  parsePermit,
  toPermissionSubject,
} from './access/permissions.js';
export type {
  ImMessage,
  PermissionSubject,
  ParsedPermit,
  SceneKind,
  PermissionChecker,
  PlatformPermissionChecker,
  Disposer,
} from './access/permissions.js';

export { canAccessTool } from './access/access.js';
export type { AccessRestrictions } from './access/access.js';

export {
  APPROVAL_UNAVAILABLE,
  approvalScopeKey,
  approvalExpiry,
  createApprovalMemory,
  unexpiringApprovalCounts,
  splitScopeKey,
} from './turn/approval.js';
export type {
  ApprovalMemoryOptions,
  ApprovalPort,
  ApprovalRequest,
  ApprovalMemory,
  RiskPolicy,
  RiskPolicyCall,
  ToolDescriptor,
  ToolCallPolicy,
} from './turn/approval.js';

export { ASK_USER, ToolUnavailableError } from './turn/ask-user.js';
export type { QuestionPort, QuestionRequest, AskUserInput, AskUserOutput } from './turn/ask-user.js';

export type { ToolBinding, ToolSourceKind, ExecutableTool, SeamOrigin } from './generation/capability.js';
export { ManifestStaleError } from './generation/capability.js';

export { SeamIntegration, capabilitySeamToken, seamIntegrationToken, isSeamIntegration } from './seam/integration.js';
export type { SeamRegistration, SeamProviderKind } from './seam/integration.js';
export type {
  SeamScope,
  SeamDisposer,
  SeamToolContext,
  ToolService,
  ToolSchema,
  ToolSchemaFunction,
  ToolExecutionResult,
  SkillService,
  SkillCatalogEntry,
  SeamToolInputs,
} from './seam/types.js';
export { BuiltinToolService, ToolRegistryAsService, SkillRegistryAsService } from './seam/adapters.js';
export type {
  BuiltinToolServiceOptions,
  ToolRegistry,
  ToolRegistryAsServiceOptions,
  SkillRegistryAsServiceOptions,
} from './seam/adapters.js';
export { projectCapabilitySeam } from './seam/projection.js';
export type { SeamProjectionOptions } from './seam/projection.js';
export { SkillTable, isSkillInScope } from './generation/skills.js';
export type { SkillEntry, SkillSummary, SkillSourceKind } from './generation/skills.js';

export { CandidateBuilder, CandidateRejectedError, Generation } from './generation/generation.js';
export type { HostConfig, GenerationLease, GenerationState, PromptSectionEntry } from './generation/generation.js';

export type {
  JournalEntry,
  JournalEntryType,
  JournalSink,
  JournalTurnInfo,
  ToolCallEntry,
  ToolResultEntry,
  ToolDeniedEntry,
  ToolFailedEntry,
  ToolCancelledEntry,
  ToolOutcome,
  ToolError,
  ToolErrorCode,
  DenialPolicy,
} from './turn/journal.js';
export type { UnrecordedValue } from './turn/snapshot.js';
export type { TurnDiagnostic, TurnDiagnosticSource } from './turn/diagnostics.js';

export { createCapabilityHost } from './generation/host.js';
export type {
  CapabilityHost,
  CapabilityHostOptions,
  CandidatePreparer,
  LoadOptions,
  LoadSummary,
} from './generation/host.js';

export type {
  Turn,
  TurnInput,
  TurnState,
  TurnToolName,
  TurnToolInput,
  RegistryToolName,
  RegistryToolInput,
} from './turn/turn.js';
export type { CallOptions } from './turn/pipeline.js';
export type { PluginDefinitions } from './generation/setup.js';
export { skillQualifiedName } from './contract/names.js';
export type { TurnScope } from './access/scope.js';

export {
  PromptBudgetError,
  assemblePrompt,
  PROMPT_SEPARATOR,
  TRUNCATION_MARKER,
  MIN_KEPT_CHARS,
  DEFAULT_SYSTEM_PROMPT_MAX_CHARS,
} from './prompt/assemble.js';
export type {
  AssembledPrompt,
  PromptPart,
  PromptPartKind,
  PromptPartReport,
  PromptPartStatus,
  PromptBudgetFailure,
  PromptBudgetErrorPart,
} from './prompt/assemble.js';
export { selectSections } from './prompt/sections.js';
export type { HiddenSection, SectionHiddenReason, SectionFilter, SectionSelection } from './prompt/sections.js';
export { buildSystemPrompt, systemPromptMaxChars } from './prompt/system-prompt.js';
export type { SystemPrompt, TurnPromptInput } from './prompt/system-prompt.js';
export type {
  CapabilityCatalog,
  CatalogAgent,
  CatalogPlugin,
  CatalogPromptSection,
  CatalogSkill,
  CatalogTool,
} from './console/catalog.js';

// Disclosure and the deferred catalog (docs/catalog.md).
export { AgentRoutingError, AgentUnavailableError } from './turn/agent-selection.js';
export type { AgentSelection } from './turn/agent-selection.js';
export { CatalogNotFoundError } from './deferred/controller.js';
export type {
  DeferredToolController,
  TurnListing,
  ListedTool,
  ListedSkill,
  ListedAgent,
  LoadedReason,
  Omission,
  ControllerSeed,
} from './deferred/controller.js';
export type { DeferredToolsConfig } from './deferred/config.js';
export { DISCOVER, LOAD_TOOL, LOAD_SKILL, META_TOOL_NAMES } from './deferred/meta-tools.js';
export type {
  MetaToolName,
  MetaToolInput,
  DiscoverInput,
  DiscoverKind,
  DiscoverOutput,
  DiscoverResult,
  LoadToolInput,
  LoadToolOutput,
  LoadSkillInput,
  LoadSkillOutput,
} from './deferred/meta-tools.js';
export { anthropicToolReferences } from './deferred/providers.js';
export type {
  ModelProvider,
  ModelToolsFor,
  ModelToolsOptions,
  AnthropicModelTool,
  AnthropicToolReference,
  OpenAIModelTool,
  GenericModelTool,
  ProviderInputSchema,
} from './deferred/providers.js';
export { createMemorySessionStore, mergeSnapshot, readSnapshot } from './deferred/session-store.js';
export type {
  DeferredToolSessionSnapshot,
  DeferredToolSessionStore,
  MemorySessionStoreOptions,
  SessionUpdate,
} from './deferred/session-store.js';
export type { OmissionReason } from './access/disclosure.js';
export type { TurnForkOptions } from './turn/turn.js';

// The MCP server list's rules, without the SDK: the compiler checks the config file with them.
export { checkMcpServers, describeMcpConfigProblems, MCP_SERVER_NAME } from './mcp/config.js';
export type {
  McpConfigProblem,
  McpConfigProblemKind,
  McpHttpServerSpec,
  McpServerOptions,
  McpServerSpec,
  McpServersConfig,
  McpStdioServerSpec,
} from './mcp/config.js';
