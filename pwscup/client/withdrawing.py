"""``pwscup withdraw ROUND N``: the team withdraws its upload ``#N`` where the round lets it
(a scorer round whose rules let teams withdraw their attacks, until the results are
published). The client knows no kind: an upload it may withdraw carries ``withdraw_url`` in
its answer (read from the round status's list); the server refuses (403, its reason) where
the round does not allow it now."""

from pwscup.client.messages import tr
from pwscup.client.session import UsageError, round_path
from pwscup.client.transport import Api


def cmd_withdraw(api: Api, args) -> int:
    status = api.get(round_path(args.round, "status/"))
    listed = [u for u in status["uploads"] if u["number"] == args.number]
    if args.type is not None:
        listed = [u for u in listed if u["type"] == args.type]
    # The status lists each upload in short; its own answer says whether it is voidable.
    uploads = [upload for upload in (api.get(u["url"]) for u in listed) if "voided" in upload]
    withdrawable = [u for u in uploads if u.get("withdraw_url")]
    if len(withdrawable) > 1:
        keys = ", ".join(sorted({u["type"] for u in withdrawable}))
        raise UsageError(tr("choose the upload's type with --type: {keys}").format(keys=keys))
    if not withdrawable:
        if any(u.get("voided") for u in uploads):
            raise UsageError(
                tr("Upload #{number} no longer counts already.").format(number=args.number)
            )
        if uploads:  # the team has it, but the round's rules let nobody withdraw it
            raise UsageError(
                tr(
                    "Upload #{number} cannot be withdrawn in this round: its Rules tab says "
                    "which uploads a team may withdraw."
                ).format(number=args.number)
            )
        raise UsageError(
            tr("your team has no upload #{number} (see `pwscup status ROUND`)").format(
                number=args.number
            )
        )
    data = {"reason": args.reason} if args.reason else None
    answer = api.post(withdrawable[0]["withdraw_url"], data=data)
    print(answer.get("message") or tr("Withdrawn."))
    return 0
