package mcptools

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
)

// PromptName is the name of the prompt that brings the memory relevant to
// a message into a conversation (prompts/get), for hosts that offer
// prompts to their users (a slash command, an "attach" menu).
const PromptName = "recall"

// ContextIntro heads the memory a prompt or a host hook puts before the
// model: what it is and how to use it.
const ContextIntro = "Memory from recall relevant to the user's message (best first; use what bears on it and ignore the rest; call retrieve for more):"

// ResultText is the retrieve tool's text for res, the result of req
// (each item with its evidence, then the tokens used of the budget),
// without a final newline.
func ResultText(res *retrieve.Result, req retrieve.Request) string {
	return strings.TrimRight(renderResult(res, req.Budget, req.Explain), "\n")
}

// ContextText is the memory of a retrieve as the recall prompt and
// `recall context` give it to a model: ContextIntro, then the retrieve
// tool's own text for res (each entry with its evidence, then the tokens
// used of the budget), without a final newline. It is "" when res has no
// items.
func ContextText(res *retrieve.Result, req retrieve.Request) string {
	if res == nil || len(res.Items) == 0 {
		return ""
	}
	req.Explain = false
	return ContextIntro + "\n\n" + ResultText(res, req)
}

// registerPrompts adds the recall prompt to srv.
func registerPrompts(srv *mcp.Server, m *service.Memory) {
	srv.AddPrompt(&mcp.Prompt{
		Name:  PromptName,
		Title: "Recall memory for a message",
		Description: `The entries of the user's long-term memory relevant to a message, put before it as context, so the model answers with what it knows about the user without a tool call. ` +
			`It runs the retrieve tool's search on the message (time phrases such as "last week" or "上周" narrow it to that range) within a token budget, and returns one user message: the memory, then the message.`,
		Arguments: []*mcp.PromptArgument{
			{Name: "message", Title: "Message", Required: true,
				Description: "The user's message, in their own words (any language): what to find memory for. A long message is searched by its beginning (8 KiB, 256 distinct terms)."},
			{Name: "budget_tokens", Title: "Token budget",
				Description: fmt.Sprintf("Cap on the estimated tokens of the memory put before the message: a whole number, 0 for no cap. Default %d.", retrieve.DefaultBudget)},
		},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := req.Params.Arguments
		message := strings.TrimSpace(args["message"])
		if message == "" {
			return nil, invalidParams(`argument "message" is required: the user's message to find memory for`)
		}
		p := service.RetrieveParams{}
		if s := strings.TrimSpace(args["budget_tokens"]); s != "" {
			b, err := strconv.Atoi(s)
			if err != nil || b < 0 {
				return nil, invalidParams(fmt.Sprintf(`argument "budget_tokens" must be a whole number, 0 (no cap) or more, got %q`, s))
			}
			p.BudgetTokens = &b
		}
		res, rreq, err := m.RetrieveMessage(ctx, message, p)
		if err != nil {
			return nil, requestError(err)
		}
		text := ContextText(res, rreq)
		desc := fmt.Sprintf("%s from recall for the message", plural(len(res.Items), "entry", "entries"))
		if text == "" {
			text = "recall's memory holds nothing that matches the user's message."
		}
		return &mcp.GetPromptResult{
			Description: desc,
			Messages: []*mcp.PromptMessage{{
				Role:    "user",
				Content: &mcp.TextContent{Text: text + "\n\n---\n\n" + message},
			}},
		}, nil
	})
}

// requestError is err as a JSON-RPC error: a bad argument (a
// *service.ParamError) is "invalid params", anything else the SDK's
// internal error with err's text.
func requestError(err error) error {
	var pe *service.ParamError
	if errors.As(err, &pe) {
		return invalidParams(err.Error())
	}
	return err
}

// invalidParams is a JSON-RPC "invalid params" error (-32602): what a
// prompt or a resource answers to a bad argument or URI.
func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}
