import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  type UIMessage,
} from "ai";

/** A plain in-memory `ChatState` (what `useChat` keeps in React state). */
class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[];

  constructor(messages: UIMessage[] = []) {
    this.messages = messages;
  }

  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };

  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };

  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)];
  };

  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** Where a {@link TestChat} sends its requests: a route handler called in-process, or a URL (real HTTP). */
export type TestChatTarget = { handler: (request: Request) => Promise<Response> } | { api: string };

/** The AI SDK's chat (the class behind `useChat`) without React: the real client, in tests. */
export class TestChat extends AbstractChat<UIMessage> {
  constructor(init: Omit<ChatInit<UIMessage>, "transport"> & TestChatTarget) {
    const { ...rest } = init;
    const transport =
      "handler" in init
        ? new DefaultChatTransport<UIMessage>({
            api: "http://chat.test/api/chat",
            fetch: async (input, requestInit) => init.handler(new Request(input as string, requestInit)),
          })
        : new DefaultChatTransport<UIMessage>({ api: init.api });
    delete (rest as { handler?: unknown }).handler;
    delete (rest as { api?: unknown }).api;
    super({ ...rest, transport, state: new MemoryChatState(init.messages) });
  }

  /** Resolves once the chat is idle (ready or error) after a request started. */
  async idle(): Promise<void> {
    for (let i = 0; i < 2000; i++) {
      if ((this.status === "ready" || this.status === "error") && !this.busy()) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`chat still ${this.status}`);
  }

  private busy(): boolean {
    return (this as unknown as { activeResponse?: unknown }).activeResponse !== undefined;
  }
}
