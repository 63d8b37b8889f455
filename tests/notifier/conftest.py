from tests.support import testjack

testjack.register()
