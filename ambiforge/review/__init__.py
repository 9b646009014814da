"""Human review: agreement statistics and adjudication of three annotators per item.

Open-source Label Studio stores annotations but not agreement or adjudication, so both are computed
here. (The Label Studio push/pull client is not built yet; see the README's "Not yet".)
"""
