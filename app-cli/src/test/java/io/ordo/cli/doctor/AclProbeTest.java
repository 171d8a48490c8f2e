package io.ordo.cli.doctor;

import io.ordo.redis.RedisAcl;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The doctor checks exactly the commands of {@link RedisAcl}'s lists, each in a form it can send. */
class AclProbeTest {
    @Test
    void every_command_ordo_sends_has_a_probe() {
        List<String> every = new ArrayList<>(RedisAcl.STORE_COMMANDS);
        every.addAll(RedisAcl.SCRIPT_COMMANDS);
        every.addAll(RedisAcl.CLUSTER_COMMANDS);
        every.add("wait");

        assertThat(AclProbe.needed(true, true)).containsExactlyElementsOf(every);
        assertThat(AclProbe.ARGUMENTS.keySet()).as("a command the functions start to call needs a probe here")
                .containsAll(every);
        assertThat(AclProbe.words("cluster|slots")).containsExactly("cluster", "slots");
        assertThat(AclProbe.needed(false, false)).doesNotContain("cluster|slots", "wait");
    }
}
