import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { useState } from "react";
import { createRoot } from "react-dom/client";

/** One tool call: its name, input, state, output; approve / deny buttons while it waits for a decision. */
function ToolPart({ part, onDecision }) {
  const name = part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length);
  return (
    <div className="tool" data-testid={`tool-${part.toolCallId}`} data-state={part.state}>
      <div>
        tool <code>{name}</code>(<code>{JSON.stringify(part.input ?? {})}</code>) —{" "}
        <span className="state">{part.state}</span>
      </div>
      {part.state === "output-available" && (
        <div>
          → <code>{String(part.output)}</code>
        </div>
      )}
      {part.state === "output-error" && <div className="error">→ {part.errorText}</div>}
      {part.state === "output-denied" && <div className="error">→ denied</div>}
      {part.state === "approval-requested" && (
        <div>
          <button type="button" className="approve" onClick={() => onDecision(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" className="deny" onClick={() => onDecision(part.approval.id, false)}>
            Deny
          </button>
        </div>
      )}
    </div>
  );
}

function Part({ part, onDecision }) {
  if (part.type === "text") return <p className="text">{part.text}</p>;
  if (part.type === "reasoning") return <p className="reasoning">{part.text}</p>;
  if (part.type === "data-output") return <pre>{JSON.stringify(part.data, null, 2)}</pre>;
  if (part.type === "dynamic-tool" || part.type.startsWith("tool-")) {
    return <ToolPart part={part} onDecision={onDecision} />;
  }
  return null;
}

function App() {
  const [input, setInput] = useState("");
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport: new DefaultChatTransport({ api: "/api/chat" }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const onDecision = (id, approved) => addToolApprovalResponse({ id, approved });
  return (
    <>
      <h1>useChat ↔ agentloop</h1>
      {messages.map((message) => (
        <div key={message.id} className={`message ${message.role}`} data-testid={`message-${message.role}`}>
          <div className="role">{message.role}</div>
          {message.parts.map((part, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts have no ids and are only appended
            <Part key={index} part={part} onDecision={onDecision} />
          ))}
        </div>
      ))}
      {error && <p className="error">Error: {error.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (input.trim() === "") return;
          sendMessage({ text: input });
          setInput("");
        }}
      >
        <input
          aria-label="Message"
          value={input}
          placeholder="Say something…"
          onChange={(event) => setInput(event.target.value)}
        />
        <button type="submit">Send</button>
      </form>
      <p className="status" data-testid="status">
        status: {status}
      </p>
    </>
  );
}

createRoot(document.getElementById("root")).render(<App />);
