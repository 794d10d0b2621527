import type { ChatAnalysis } from '@mostrador/contract';

/** One message of a conversation as the engines read it: `in` the customer's, `out` the business's. */
export interface ConversationMessage {
  direction: 'in' | 'out';
  text: string | null;
  at?: Date | string | null;
}

/** A chat's window of messages, oldest first; `now` is when it is analysed (for an unanswered last message). */
export interface Conversation {
  messages: ConversationMessage[];
  now?: Date;
}

/**
 * An analysis engine (decision 0044): the embedded Spanish classifier, the default, or an
 * OpenAI-compatible chat endpoint when configured. `name` is stored in chat_analyses.engine.
 */
export interface Analyzer {
  name: string;
  /**
   * How many chats of a batch it may analyse at once (default 1). The embedded engine runs on this
   * process's CPU: 1. An HTTP engine mostly waits on the network: a few calls in flight keep a
   * company's batch from taking chats × the model's latency.
   */
  concurrency?: number;
  /** `engine`: the engine that did answer when not `name` (the OpenAI-compatible one fell back to the embedded one). */
  analyze(conversation: Conversation, context?: AnalysisContext): Promise<ChatAnalysis & { engine?: string }>;
}

/** Which chat is analysed (the ledger's row names it). */
export interface AnalysisContext {
  companyId: string;
  chatId: string;
  chatName?: string | null;
}
