from tests.support import testjack
from tests.support.lobby_stack import http, register, stack, stack_options  # noqa: F401  (fixtures)

testjack.register()
