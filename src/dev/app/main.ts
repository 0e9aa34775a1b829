import { Api } from "./api.js";
import { type ApprovalDecisions, ChatView } from "./chat-view.js";
import { byId, clear, h } from "./dom.js";
import { SidebarView } from "./sidebar-view.js";
import { setUpTheme } from "./theme.js";
import { TimelineView } from "./timeline-view.js";
import { TraceView } from "./trace-view.js";
import type {
  AgentEvent,
  DevInfo,
  DevMessage,
  DevRunInfo,
  DevTraceView,
  PendingCall,
  RunResultSummary,
} from "./types.js";

const SESSION_KEY = "agentloop-dev-session";
const TOKEN_KEY = "agentloop-dev-token";

function newSessionId(): string {
  return `chat-${Date.now().toString(36)}`;
}

/** The token from the URL the CLI printed (`#token=…`), kept for reloads of this tab. */
function readToken(): string | undefined {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash !== null && fromHash !== "") {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    return fromHash;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function start(): void {
  setUpTheme(byId<HTMLButtonElement>("theme-toggle"));
  const banner = byId("banner");
  const token = readToken();
  if (token === undefined) {
    banner.hidden = false;
    banner.textContent =
      "This page needs the access token: open the URL that `agentloop dev` printed (it ends in #token=…).";
    return;
  }
  const api = new Api(token);
  const chat = new ChatView(byId("chat-log"));
  const timeline = new TimelineView(byId<HTMLOListElement>("timeline"));
  const timelineHead = byId("timeline-head");
  const traces = new TraceView({
    root: byId("panel-trace"),
    replay: (name) => api.post(`/traces/${encodeURIComponent(name)}/replay`),
  });
  const input = byId<HTMLTextAreaElement>("message");
  const send = byId<HTMLButtonElement>("send");
  let sessionId = sessionStorage.getItem(SESSION_KEY) ?? newSessionId();
  let currentRun: string | undefined;
  let currentTrace: string | undefined;
  let running = false;
  let sent = false;
  let version = -1;

  const setRunning = (value: boolean): void => {
    running = value;
    send.disabled = value;
    send.textContent = value ? "Running…" : "Send";
  };

  // Tabs: Timeline / Trace (arrow keys move between them, as the ARIA tabs pattern has it).
  const tabs = [byId<HTMLButtonElement>("tab-timeline"), byId<HTMLButtonElement>("tab-trace")];
  const selectTab = (index: number, focus = false): void => {
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === index));
      tab.tabIndex = i === index ? 0 : -1;
      byId(tab.getAttribute("aria-controls") ?? "").hidden = i !== index;
    });
    if (focus) tabs[index]?.focus();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => selectTab(i));
    tab.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight" || event.key === "ArrowLeft") selectTab((i + 1) % tabs.length, true);
    });
  });

  const sidebar = new SidebarView({
    sessions: byId("sessions"),
    runs: byId("runs"),
    traces: byId("traces"),
    handlers: {
      openSession: (id) => void openSession(id),
      openRun: (id) => void openRun(id),
      openTrace: (name) => void openTrace(name),
    },
  });

  async function refreshLists(): Promise<void> {
    try {
      const [sessions, runs, files] = await Promise.all([
        api.get<Array<{ sessionId: string; updatedAt: number }>>("/sessions"),
        api.get<DevRunInfo[]>("/runs"),
        api.get<Array<{ name: string; size: number; modifiedAt: number }>>("/traces"),
      ]);
      sidebar.showSessions(sessions, sessionId);
      sidebar.showRuns(runs, currentRun);
      sidebar.showTraces(files, currentTrace);
    } catch (error) {
      // 503 while the agent file has never loaded: the banner says why.
      if (!(error instanceof Error && "status" in error && error.status === 503))
        chat.showError(messageOf(error));
    }
  }

  function showInfo(info: DevInfo): void {
    const target = byId("agent-info");
    clear(target);
    if (info.agent !== null) {
      const gated = info.agent.tools.filter((tool) => tool.needsApproval !== false).map((tool) => tool.name);
      target.append(
        h("strong", {}, info.agent.name),
        ` · ${info.agent.model} · `,
        h(
          "span",
          { class: "muted" },
          `tools: ${info.agent.tools.map((tool) => tool.name).join(", ") || "none"}${gated.length > 0 ? ` (approval: ${gated.join(", ")})` : ""}`,
        ),
        h(
          "span",
          { class: "muted" },
          info.source.kind === "file"
            ? ` · ${info.source.file} · v${info.version}`
            : " · demo agent (mock model, no key)",
        ),
      );
    }
    banner.hidden = info.error === null;
    banner.textContent =
      info.error === null
        ? ""
        : `The agent file failed to load: ${info.error.message}${info.agent === null ? "" : " — the last good agent is still in use."}`;
  }

  async function pollInfo(): Promise<void> {
    try {
      const info = await api.get<DevInfo>("/info");
      if (info.version !== version && version >= 0 && info.error === null) {
        const toast = byId("toast");
        toast.textContent = `Agent reloaded (version ${info.version})`;
        toast.hidden = false;
        setTimeout(() => {
          toast.hidden = true;
        }, 3000);
      }
      const first = version < 0;
      version = info.version;
      showInfo(info);
      if (first) void refreshLists();
    } catch (error) {
      banner.hidden = false;
      banner.textContent = `The dev server does not answer: ${messageOf(error)}`;
    }
  }

  /** Streams a run (or a resumed part) into the chat and the timeline. */
  async function streamRun(path: string, body: unknown, { fresh }: { fresh: boolean }): Promise<void> {
    setRunning(true);
    if (fresh) {
      timeline.reset();
      clear(timelineHead);
    }
    selectTab(0);
    const reply = chat.startReply();
    let result: RunResultSummary | undefined;
    try {
      await api.stream(path, body, {
        onEvent: (event: AgentEvent) => {
          reply.onEvent(event);
          // A resumed run replays its log first: the timeline shows those events already.
          if (!(event.replayed === true && !fresh && timeline.size > 0)) timeline.add(event);
        },
        onResult: (summary) => {
          result = summary;
          reply.finish(summary);
          timeline.addResult(summary);
          if (summary.runId !== undefined) currentRun = summary.runId;
        },
        onError: (error) => {
          reply.fail(`${error.name}: ${error.message}`);
          timeline.addFailure(`${error.name}: ${error.message}`);
        },
      });
    } catch (error) {
      reply.fail(messageOf(error));
    } finally {
      setRunning(false);
    }
    void refreshLists();
    if (
      result?.stopReason === "awaiting_approval" &&
      result.pendingApprovals !== undefined &&
      result.runId !== undefined
    ) {
      askApproval(result.runId, result.pendingApprovals);
    } else input.focus();
  }

  function askApproval(runId: string, calls: readonly PendingCall[]): void {
    chat.showApproval(
      calls,
      (decisions: ApprovalDecisions) =>
        void streamRun(`/runs/${encodeURIComponent(runId)}/resume`, decisions, { fresh: false }),
    );
  }

  /** Shows a session's conversation (`stored: false`: one with no messages yet, nothing to load). */
  async function openSession(id: string, stored = true): Promise<void> {
    sessionId = id;
    sessionStorage.setItem(SESSION_KEY, id);
    byId("session-label").textContent = `session ${id}${stored ? "" : " (new)"}`;
    try {
      if (!stored) chat.reset("A new conversation: say something to the agent.");
      else chat.showHistory(await api.get<DevMessage[]>(`/sessions/${encodeURIComponent(id)}`));
    } catch (error) {
      chat.reset(`Could not load the session: ${messageOf(error)}`);
    }
    void refreshLists();
  }

  async function openRun(runId: string): Promise<void> {
    currentRun = runId;
    selectTab(0);
    try {
      const { run, events } = await api.get<{ run: DevRunInfo; events: AgentEvent[] }>(
        `/runs/${encodeURIComponent(runId)}`,
      );
      if (run.sessionId !== undefined && run.sessionId !== sessionId) await openSession(run.sessionId);
      timeline.reset(
        events.length === 0 ? "This run has not finished: its events show once it ends." : undefined,
      );
      for (const event of events) timeline.add(event);
      byId("panel-timeline").scrollTop = 0;
      clear(timelineHead);
      timelineHead.append(
        h("h3", {}, run.input || run.runId),
        h("div", { class: "meta" }, `${run.runId} · ${run.stopReason ?? "unfinished"}`),
      );
      if (run.pending !== undefined && run.pending.length > 0 && !running)
        askApproval(run.runId, run.pending);
    } catch (error) {
      timeline.reset(`Could not open the run: ${messageOf(error)}`);
    }
    void refreshLists();
  }

  async function openTrace(name: string): Promise<void> {
    currentTrace = name;
    selectTab(1);
    try {
      traces.show(await api.get<DevTraceView>(`/traces/${encodeURIComponent(name)}`));
    } catch (error) {
      traces.reset(`Could not open ${name}: ${messageOf(error)}`);
    }
    void refreshLists();
  }

  byId("composer").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text === "" || running) return;
    input.value = "";
    sent = true;
    sessionStorage.setItem(SESSION_KEY, sessionId);
    byId("session-label").textContent = `session ${sessionId}`;
    chat.addUser(text);
    void streamRun("/runs", { input: text, sessionId }, { fresh: true });
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      byId<HTMLFormElement>("composer").requestSubmit();
    }
  });
  byId("new-session").addEventListener("click", () => {
    void openSession(newSessionId(), false);
    timeline.reset("The timeline of the next run shows here.");
    clear(timelineHead);
    input.focus();
  });
  byId("refresh").addEventListener("click", () => void refreshLists());
  const file = byId<HTMLInputElement>("trace-file");
  byId("open-trace").addEventListener("click", () => file.click());
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    file.value = "";
    if (chosen === undefined) return;
    selectTab(1);
    try {
      const view = await api.post<DevTraceView>("/traces", {
        text: await chosen.text(),
        filename: chosen.name,
      });
      currentTrace = view.name;
      traces.show(view);
    } catch (error) {
      traces.reset(`Could not open ${chosen.name}: ${messageOf(error)}`);
    }
    void refreshLists();
  });

  traces.reset("Open a trace from the list (every run saves one) or from a file.");
  timeline.reset("The timeline of the next run shows here.");
  void api
    .get<Array<{ sessionId: string }>>("/sessions")
    .catch(() => [])
    // Unless a message went out meanwhile (that run's reply must stay on screen).
    .then((sessions) => {
      if (!sent)
        void openSession(
          sessionId,
          sessions.some((session) => session.sessionId === sessionId),
        );
    });
  void pollInfo();
  setInterval(() => void pollInfo(), 1500);
  input.focus();
}

start();
